#!/bin/sh
# Per-user install of the unpacked controlroom folder: menu entry, icon, the .crgame file type,
# and `controlroom` on the PATH (~/.local/bin). No root needed. The folder stays where it is.
#     ./install.sh              install (again) for this user
#     ./install.sh --uninstall  remove the menu entry, icon, file type and command (not the folder)
set -eu
here=$(dirname "$(readlink -f "$0")")
data=${XDG_DATA_HOME:-$HOME/.local/share}
bin=$HOME/.local/bin
apps=$data/applications
icons=$data/icons/hicolor/256x256/apps
mime=$data/mime/packages

refresh() {
    command -v update-mime-database >/dev/null 2>&1 && update-mime-database "$data/mime" >/dev/null 2>&1 || true
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$apps" >/dev/null 2>&1 || true
}

if [ "${1:-}" = "--uninstall" ]; then
    rm -f "$apps/controlroom.desktop" "$icons/controlroom.png" "$mime/controlroom-mime.xml" "$bin/controlroom"
    refresh
    echo "controlroom: menu entry, icon, file type and command removed (the folder $here stays)"
    exit 0
fi

mkdir -p "$apps" "$icons" "$mime" "$bin"
sed "s|^Exec=controlroom-launch|Exec=\"$here/controlroom-launch\"|" "$here/share/controlroom.desktop" > "$apps/controlroom.desktop"
cp "$here/share/controlroom.png" "$icons/controlroom.png"
cp "$here/share/controlroom-mime.xml" "$mime/controlroom-mime.xml"
ln -sf "$here/controlroom/controlroom" "$bin/controlroom"
refresh
echo "controlroom: installed for $(id -un); start it from the menu or with: controlroom"
if ! id -nG | tr ' ' '\n' | grep -qx dialout; then
    echo "To use USB LoRa gateways, join the dialout group once and log in again:"
    echo "    sudo usermod -aG dialout \"\$USER\""
    echo "(or see share/60-controlroom-usb-serial.rules)"
fi
