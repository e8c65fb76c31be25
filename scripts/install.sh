#!/bin/sh
# Installs or uninstalls eventd (used by `make install` and `make uninstall`).
#
#   scripts/install.sh install   PREFIX DESTDIR BUILD_DIR
#   scripts/install.sh uninstall PREFIX DESTDIR
#
# PREFIX is where the files will live on the target system (/usr/local, /usr,
# $HOME/.local); DESTDIR, which may be empty, is prepended to every path for staged
# installs (packaging). BUILD_DIR holds the built eventd and eventctl binaries
# (.build/release). The systemd units' ExecStart= is rewritten to PREFIX/bin/PROGRAM.
#
# Installed, under DESTDIR/PREFIX:
#   bin/eventd, bin/eventctl, bin/eventd-web
#   lib/systemd/system/eventd.service, lib/systemd/system/eventd.socket
#   lib/systemd/system/eventd-web.service, lib/systemd/system/eventd-web.socket
#   lib/systemd/system/eventd-web-upstream.service, lib/systemd/system/eventd-web-upstream.socket
#   lib/systemd/user/eventd.service, lib/systemd/user/eventd.socket
#   lib/systemd/user/eventd-web.service, lib/systemd/user/eventd-web.socket
#   lib/systemd/user/eventctl-remind.service
#   lib/sysusers.d/eventd.conf
#   share/man/man1/eventd.1, share/man/man1/eventctl.1, share/man/man1/eventd-web.1
#   share/eventd/web/ (the dashboard: index.html, *.js, style.css, layout.css, favicon.svg)
#   share/bash-completion/completions/eventctl
#   share/zsh/site-functions/_eventctl
#   share/fish/vendor_completions.d/eventctl.fish
#   share/doc/eventd/statusbar/ (waybar-config.jsonc, waybar-style.css, i3bar.md),
#   share/doc/eventd/protocol.md, share/doc/eventd/feed_client.py
# `uninstall` removes exactly these files (directories are left in place).
set -eu

usage() {
    echo "usage: $0 install PREFIX DESTDIR BUILD_DIR" >&2
    echo "       $0 uninstall PREFIX DESTDIR" >&2
    exit 64
}

fail() {
    echo "install.sh: $*" >&2
    exit 1
}

[ $# -ge 1 ] || usage
action=$1
case $action in
    install) [ $# -eq 4 ] || usage ;;
    uninstall) [ $# -eq 3 ] || usage ;;
    *) usage ;;
esac
prefix=$2
destdir=$3

case $prefix in
    /*) ;;
    *) fail "PREFIX must be an absolute path, not '$prefix'" ;;
esac
# Drop trailing slashes (but keep "/").
while [ "${prefix%/}" != "$prefix" ] && [ "$prefix" != / ]; do prefix=${prefix%/}; done
[ "$prefix" = / ] && prefix=
root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
base=$destdir$prefix

# source (relative to the repository) : destination (relative to PREFIX) : mode
manifest="
- bin/eventd 0755
- bin/eventctl 0755
- bin/eventd-web 0755
systemd/eventd.service lib/systemd/system/eventd.service 0644
systemd/eventd.socket lib/systemd/system/eventd.socket 0644
systemd/user/eventd.service lib/systemd/user/eventd.service 0644
systemd/user/eventd.socket lib/systemd/user/eventd.socket 0644
systemd/eventd-web.service lib/systemd/system/eventd-web.service 0644
systemd/eventd-web.socket lib/systemd/system/eventd-web.socket 0644
systemd/eventd-web-upstream.service lib/systemd/system/eventd-web-upstream.service 0644
systemd/eventd-web-upstream.socket lib/systemd/system/eventd-web-upstream.socket 0644
systemd/user/eventd-web.service lib/systemd/user/eventd-web.service 0644
systemd/user/eventd-web.socket lib/systemd/user/eventd-web.socket 0644
systemd/user/eventctl-remind.service lib/systemd/user/eventctl-remind.service 0644
systemd/eventd.sysusers lib/sysusers.d/eventd.conf 0644
man/eventd.1 share/man/man1/eventd.1 0644
man/eventctl.1 share/man/man1/eventctl.1 0644
man/eventd-web.1 share/man/man1/eventd-web.1 0644
web/index.html share/eventd/web/index.html 0644
web/app.js share/eventd/web/app.js 0644
web/feed.js share/eventd/web/feed.js 0644
web/render.js share/eventd/web/render.js 0644
web/motion.js share/eventd/web/motion.js 0644
web/controls.js share/eventd/web/controls.js 0644
web/format.js share/eventd/web/format.js 0644
web/keyboard.js share/eventd/web/keyboard.js 0644
web/sheet.js share/eventd/web/sheet.js 0644
web/style.css share/eventd/web/style.css 0644
web/layout.css share/eventd/web/layout.css 0644
web/favicon.svg share/eventd/web/favicon.svg 0644
completions/eventctl.bash share/bash-completion/completions/eventctl 0644
completions/_eventctl share/zsh/site-functions/_eventctl 0644
completions/eventctl.fish share/fish/vendor_completions.d/eventctl.fish 0644
docs/statusbar/waybar-config.jsonc share/doc/eventd/statusbar/waybar-config.jsonc 0644
docs/statusbar/waybar-style.css share/doc/eventd/statusbar/waybar-style.css 0644
docs/statusbar/i3bar.md share/doc/eventd/statusbar/i3bar.md 0644
docs/protocol.md share/doc/eventd/protocol.md 0644
docs/feed_client.py share/doc/eventd/feed_client.py 0644
"

do_install() {
    build_dir=$1
    for program in eventd eventctl eventd-web; do
        [ -x "$build_dir/$program" ] || fail "$build_dir/$program is missing; build first (make release)"
    done
    # PREFIX/bin/ as ExecStart= must name it on the target system, escaped for sed.
    bin_dir=$(printf '%s\n' "$prefix/bin/" | sed 's/[\\|&]/\\&/g')
    echo "$manifest" | while read -r source target mode; do
        [ -n "$source" ] || continue
        dest=$base/$target
        install -d -m 0755 "$(dirname -- "$dest")"
        case $source in
            -)
                binary=$build_dir/$(basename -- "$target")
                # A multi-call build (make release-static): eventctl and eventd-web are
                # links to eventd, and stay links.
                if [ -L "$binary" ]; then
                    ln -sfn "$(readlink -- "$binary")" "$dest"
                else
                    install -m "$mode" "$binary" "$dest"
                fi ;;
            *.service)
                tmp=$dest.tmp.$$
                program=$(sed -n 's|^ExecStart=/usr/local/bin/\([a-z-]*\)\( .*\)\{0,1\}$|\1|p' "$root/$source")
                [ -n "$program" ] || fail "no ExecStart=/usr/local/bin/PROGRAM in $source"
                sed "s|^ExecStart=/usr/local/bin/|ExecStart=$bin_dir|" "$root/$source" > "$tmp"
                grep -qF "ExecStart=$prefix/bin/$program" "$tmp" || { rm -f "$tmp"; fail "could not rewrite ExecStart= in $source"; }
                chmod "$mode" "$tmp"
                mv -f "$tmp" "$dest" ;;
            *)
                install -m "$mode" "$root/$source" "$dest" ;;
        esac
        echo "installed $dest"
    done
    [ -z "$destdir" ] || return 0
    echo
    echo 'Next steps (see README.md, "Running it"):'
    case $prefix in
        /usr | /usr/local)
            echo "  system service: systemd-sysusers && systemctl daemon-reload && systemctl enable --now eventd.socket"
            echo "  user service:   systemctl --user daemon-reload && systemctl --user enable --now eventd.socket"
            echo "  dashboard:      systemctl [--user] enable --now eventd-web.socket, then open http://127.0.0.1:8787/" ;;
        *)
            # systemd looks for units and sysusers.d entries below /usr/local and /usr only.
            echo "  user service:   systemctl --user link $prefix/lib/systemd/user/eventd.service $prefix/lib/systemd/user/eventd.socket"
            echo "                  systemctl --user enable --now eventd.socket"
            echo "  system service: systemd-sysusers $prefix/lib/sysusers.d/eventd.conf"
            echo "                  systemctl link $prefix/lib/systemd/system/eventd.service $prefix/lib/systemd/system/eventd.socket"
            echo "                  systemctl enable --now eventd.socket" ;;
    esac
}

do_uninstall() {
    echo "$manifest" | while read -r source target mode; do
        [ -n "$source" ] || continue
        dest=$base/$target
        if [ -e "$dest" ] || [ -L "$dest" ]; then
            rm -f "$dest"
            echo "removed $dest"
        fi
    done
}

case $action in
    install) do_install "$4" ;;
    uninstall) do_uninstall ;;
esac
