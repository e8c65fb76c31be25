#!/bin/sh
# Builds libical (the version the system has, from Debian's source package) with
# -fsanitize=address,fuzzer-no-link, so that scripts/fuzz.sh (FUZZ_LIBICAL=1) can link
# it into the harness: libFuzzer then sees libical's branches and ASan checks its
# memory accesses, not only eventd's Swift code.
#
#   scripts/build_fuzz_libical.sh [DIR]     (default DIR: .build/libical-fuzz)
#
# Prints the path of the static library. Needs: clang (the Swift toolchain's), cmake,
# libicu-dev, and `apt-get source` (a deb-src entry for the distribution; as root the
# script installs cmake and dpkg-dev when missing, but does not edit apt's sources).
set -eu

ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
DIR=${1:-$ROOT/.build/libical-fuzz}
CLANG=${CLANG:-$(dirname "$(command -v swift)")/clang}
VERSION=$(dpkg-query -W -f='${Version}' libical-dev | sed 's/-.*//')

if [ -f "$DIR/build/lib/libical.a" ] && [ "$(cat "$DIR/version" 2>/dev/null)" = "$VERSION" ]; then
    echo "$DIR/build/lib/libical.a"
    exit 0
fi
for tool in cmake dpkg-source; do
    if ! command -v $tool >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ]; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake dpkg-dev >/dev/null
        else
            echo "build_fuzz_libical.sh: $tool missing (apt-get install cmake dpkg-dev)" >&2; exit 69
        fi
    fi
done
mkdir -p "$DIR"
cd "$DIR"
if [ ! -d "libical-$VERSION" ]; then
    # Only the upstream tarball is needed (Debian's patch set may be gone from the mirror).
    apt-get source -qq --download-only libical3 >&2 || true
    tarball=$(ls libical3_"$VERSION".orig.tar.gz 2>/dev/null || true)
    [ -n "$tarball" ] || { echo "build_fuzz_libical.sh: could not download libical3 $VERSION source (is there a deb-src entry?)" >&2; exit 69; }
    tar xzf "$tarball"
fi
rm -rf build && mkdir build && cd build
FLAGS="-O1 -g -fsanitize=address,fuzzer-no-link"
CC="$CLANG" CXX="$CLANG++" CFLAGS="$FLAGS" CXXFLAGS="$FLAGS" cmake "../libical-$VERSION" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTATIC_ONLY=ON -DICAL_GLIB=OFF -DICAL_BUILD_DOCS=OFF \
    -DLIBICAL_BUILD_TESTING=OFF -DGOBJECT_INTROSPECTION=OFF -DICAL_GLIB_VAPI=OFF \
    -DUSE_BUILTIN_TZDATA=OFF -DENABLE_GTK_DOC=OFF -DWITH_CXX_BINDINGS=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_BDB=ON >cmake.log 2>&1 || { tail -20 cmake.log >&2; exit 70; }
make -j"$(nproc)" ical >make.log 2>&1 || { tail -20 make.log >&2; exit 70; }
echo "$VERSION" > "$DIR/version"
echo "$DIR/build/lib/libical.a"
