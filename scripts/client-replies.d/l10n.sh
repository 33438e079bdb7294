#!/usr/bin/env bash
# scripts/client-replies.d/l10n.sh: write parser/testdata/l10n/attributions.tsv
# from the localisation strings of the mail programs Debian ships.
#
# Nothing is installed: each package is fetched with `apt-get download`
# into a temporary folder and unpacked there with `dpkg-deb -x`; the
# Thunderbird language packs (.xpi) are unzipped, the gettext catalogues
# (.mo) are read with Python's gettext module (the same table msgunfmt
# prints). Only translated strings are kept: a language whose catalogue
# has no translation for a string gets no row for it.
#
# Needs: Debian 12 with network, apt-get, dpkg-deb, unzip, python3.
# Usage: scripts/client-replies.d/l10n.sh [OUT]
#   OUT defaults to parser/testdata/l10n/attributions.tsv.
# Environment: L10N_WORK (download folder, default a new temporary one,
#   removed afterwards unless L10N_KEEP=1).
# See docs/l10n-sources.md.
set -euo pipefail

D=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$D/../.." && pwd)
OUT=${1:-$ROOT/parser/testdata/l10n/attributions.tsv}
WORK=${L10N_WORK:-$(mktemp -d /tmp/l10n.XXXXXX)}
if [ -z "${L10N_WORK:-}" ] && [ "${L10N_KEEP:-}" != 1 ]; then
	trap 'rm -rf "$WORK"' EXIT
fi

# Thunderbird language packs, by the language tag used in the tables.
# Thunderbird has no fa or hi pack in Debian 12.
declare -A TB=(
	[en-GB]=en-gb [ar]=ar [bg]=bg [ca]=ca [cs]=cs [da]=da [de]=de [el]=el
	[es]=es-es [fi]=fi [fr]=fr [he]=he [hr]=hr [hu]=hu [id]=id [it]=it
	[ja]=ja [ko]=ko [nb]=nb-no [nn]=nn-no [nl]=nl [pl]=pl [pt-BR]=pt-br
	[pt-PT]=pt-pt [ro]=ro [ru]=ru [sk]=sk [sr]=sr [sv]=sv-se [th]=th
	[tr]=tr [uk]=uk [vi]=vi [zh-CN]=zh-cn [zh-TW]=zh-tw
)
# Packages holding the gettext catalogues read below.
GETTEXT_PKGS=(evolution-common claws-mail-i18n geary mutt kf5-messagelib-data)

mkdir -p "$WORK/deb" "$WORK/root" "$WORK/tb"
cd "$WORK/deb"
pkgs=("${GETTEXT_PKGS[@]}")
for tag in "${!TB[@]}"; do pkgs+=("thunderbird-l10n-${TB[$tag]}"); done
# apt-get download prints a warning when it runs as root in a folder
# _apt cannot write; the download still succeeds.
apt-get download "${pkgs[@]}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true

: >"$WORK/versions.txt"
for deb in "$WORK"/deb/*.deb; do
	dpkg-deb -f "$deb" Package Version | paste -sd' ' >>"$WORK/versions.txt"
	dpkg-deb -x "$deb" "$WORK/root"
done
sort -o "$WORK/versions.txt" "$WORK/versions.txt"

for tag in "${!TB[@]}"; do
	xpi=$(find "$WORK/root/usr/lib/thunderbird/extensions" \
		-iname "langpack-${TB[$tag]}@*.xpi" | head -n1)
	[ -n "$xpi" ] || { echo "l10n: no Thunderbird pack for $tag" >&2; continue; }
	mkdir -p "$WORK/tb/$tag"
	unzip -q -o "$xpi" '*/composeMsgs.properties' '*/mime.properties' -d "$WORK/tb/$tag"
done

mkdir -p "$(dirname "$OUT")"
python3 "$D/l10n_tables.py" "$WORK" >"$OUT"
echo "l10n: wrote $(($(wc -l <"$OUT") - 1)) rows to $OUT" >&2
echo "l10n: package versions read:" >&2
sed 's/^/  /' "$WORK/versions.txt" >&2
