#!/bin/sh
# Builds eventd's Debian package from built binaries (used by `make deb`).
#
#   scripts/build-deb.sh VERSION BUILD_DIR OUT_DIR
#
# BUILD_DIR holds the eventd, eventctl and eventd-web to ship (the static multi-call
# build, .build-static/multicall, where eventctl and eventd-web are links to eventd); VERSION is the package's version (make's VERSION, from
# Sources/Diagnostics/ProductVersion.swift, unless DEB_VERSION says otherwise). The
# package is built by dpkg-buildpackage and debhelper from debian/ in a staging tree,
# OUT_DIR/eventd-VERSION/ (so that dpkg-buildpackage's output, which goes to the tree's
# parent, stays in OUT_DIR), with debian/changelog written for VERSION; it ends up as
# OUT_DIR/eventd_VERSION_ARCH.deb. Nothing is compiled: the same binaries can be packed
# under several versions.
set -eu

[ $# -eq 3 ] || { echo "usage: $0 VERSION BUILD_DIR OUT_DIR" >&2; exit 64; }
version=$1
build_dir=$2
out_dir=$3
root=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)

case $version in
    [0-9]*) ;;
    *) echo "build-deb.sh: '$version' is not a Debian version" >&2; exit 64 ;;
esac
for program in eventd eventctl eventd-web; do
    [ -x "$build_dir/$program" ] || { echo "build-deb.sh: $build_dir/$program is missing; build first (make release-static)" >&2; exit 1; }
done

mkdir -p "$out_dir"
out_dir=$(CDPATH='' cd -- "$out_dir" && pwd)
stage=$out_dir/eventd-$version
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/scripts"
cp -R "$root/debian" "$root/systemd" "$root/man" "$root/completions" "$root/web" "$stage/"
mkdir -p "$stage/docs/statusbar"
cp "$root/docs/protocol.md" "$root/docs/feed_client.py" "$stage/docs/"
cp "$root/docs/statusbar/waybar-config.jsonc" "$root/docs/statusbar/waybar-style.css" "$root/docs/statusbar/i3bar.md" "$stage/docs/statusbar/"
cp "$root/scripts/install.sh" "$stage/scripts/"
for program in eventd eventctl eventd-web; do
    cp -P "$build_dir/$program" "$stage/bin/"
done

# The changelog's one entry says which version this is; its date is the last commit's
# (or now, outside git), so that rebuilding the same tree gives the same package.
date=$(git -C "$root" log -1 --format=%cD 2>/dev/null || date -R)
maintainer=$(sed -n 's/^Maintainer: //p' "$root/debian/control")
cat > "$stage/debian/changelog" <<CHANGELOG
eventd ($version) unstable; urgency=medium

  * eventd $version; what changed is in the project's git history.

 -- $maintainer  $date
CHANGELOG

(cd "$stage" && dpkg-buildpackage --build=binary --no-sign >&2) || exit 1
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb=$out_dir/eventd_${version}_$arch.deb
[ -f "$deb" ] || { echo "build-deb.sh: dpkg-buildpackage made no $deb" >&2; exit 1; }
rm -rf "$stage"
echo "$deb"
