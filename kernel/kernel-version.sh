#!/usr/bin/env bash
# kernel/kernel-version.sh - the kernel release (6.1.0-NN-amd64) of Debian's
# installed linux-headers-amd64, which must be the one linux-image-amd64
# installs too.  Never `uname -r`: the host runs a different kernel.
# Prints the release; exit 1 when the packages are missing or disagree.
set -u
rel() {
	dpkg-query -W -f='${Depends}\n' "$1" 2>/dev/null |
		tr ',' '\n' | sed -n "s/^ *$2-\([^ ]*-amd64\) .*/\1/p" | head -1
}
h=$(rel linux-headers-amd64 linux-headers)
i=$(rel linux-image-amd64 linux-image)
if [ -z "$h" ] || [ -z "$i" ]; then
	echo "kernel-version: linux-headers-amd64 and linux-image-amd64 must be installed" >&2
	exit 1
fi
if [ "$h" != "$i" ]; then
	echo "kernel-version: headers are $h but the image is $i (apt-get upgrade both)" >&2
	exit 1
fi
if [ ! -d "/lib/modules/$h/build" ]; then
	echo "kernel-version: /lib/modules/$h/build is missing" >&2
	exit 1
fi
echo "$h"
