#!/usr/bin/env bash
# Prepares the AisleRiot reference used by tests/aisleriot (idempotent): installs guile-3.0 and
# libglib2.0-dev from Debian, and unpacks (does not install) the Debian package "aisleriot" into
# a cache folder, whose compiled game rules the tests run through tests/aisleriot/shim.scm.
#   scripts/aisleriot-reference.sh            cache in ${PATIENCEBOOK_AISLERIOT_DIR:-~/.cache/patiencebook-aisleriot}
set -euo pipefail

cache="${PATIENCEBOOK_AISLERIOT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/patiencebook-aisleriot}"
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"

debs=(guile-3.0 libglib2.0-dev gcc pkg-config)
missing=()
for pkg in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
updated=no
if [ "${#missing[@]}" -gt 0 ]; then
  $sudo_cmd apt-get update -q
  updated=yes
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The game modules tests/aisleriot/conftest.py compares with (GAMES); the Debian package ships
# them compiled, next to aisleriot/api.go, so nothing is compiled here.
games=(hamilton agnes eagle-wing klondike freecell spider yukon golf canfield scorpion forty-thieves
       bakers-dozen gypsy
       bakers-game eight-off beleaguered-castle
       spiderette
       whitehead easthaven odessa seahaven triple-peaks
       streets-and-alleys fortress westhaven king-albert kansas lady-jane giant cruel
       chessboard thumb-and-pouch jumbo will-o-the-wisp spider-three-decks)
have_games() {
  local dir
  dir=$(compgen -G "$cache/root/usr/lib/*/aisleriot/guile/3.0/aisleriot/api.go" | head -n 1) || return 1
  dir=$(dirname "$(dirname "$dir")")
  for game in "${games[@]}"; do
    [ -f "$dir/$game.go" ] || return 1
  done
}

if ! have_games; then
  mkdir -p "$cache/download"
  (
    cd "$cache/download"
    rm -f aisleriot_*.deb
    if ! apt-get download aisleriot 2>/dev/null; then
      [ "$updated" = yes ] || $sudo_cmd apt-get update -q
      apt-get download aisleriot
    fi
  )
  rm -rf "$cache/root"
  dpkg-deb -x "$cache"/download/aisleriot_*.deb "$cache/root"
fi
have_games || {
  echo "aisleriot-reference: no compiled game rules (guile/3.0/aisleriot/api.go and ${games[*]}," \
       "as .go files) in $cache/root" >&2
  exit 1
}
echo "aisleriot-reference: ready in $cache"
