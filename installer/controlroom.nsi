; controlroom's Windows installer (NSIS 3, Unicode): a per-user install without administrator rights.
;
; installer/build.py compiles it after PyInstaller, passing the folders:
;   makensis -DVERSION=0.1.0 -DBUNDLE_DIR=dist\controlroom -DICON=...\controlroom.ico
;            -DOUTFILE=dist\controlroom-0.1.0-setup.exe -DDRIVERS_TXT=installer\windows-drivers.txt
;            installer\controlroom.nsi
; It installs into %LOCALAPPDATA%\Programs\controlroom, adds Start-menu entries,
; opens .crgame game files with controlroom (HKCU), and registers an uninstaller
; in Settings, Apps. One page carries the notes on the USB-serial drivers
; (CP210x, CH340) of the LoRa gateways.

Unicode true
ManifestDPIAware true
RequestExecutionLevel user

!ifndef VERSION
  !define VERSION "0.0.0"
!endif
!ifndef BUNDLE_DIR
  !define BUNDLE_DIR "..\dist\controlroom"
!endif
!ifndef ICON
  !define ICON "controlroom.ico"
!endif
!ifndef OUTFILE
  !define OUTFILE "controlroom-${VERSION}-setup.exe"
!endif
!ifndef DRIVERS_TXT
  !define DRIVERS_TXT "windows-drivers.txt"
!endif
!ifdef COMPRESSOR
  !if "${COMPRESSOR}" == "none"
    SetCompress off
  !else
    SetCompressor /SOLID ${COMPRESSOR}
  !endif
!else
  SetCompressor /SOLID lzma
!endif

!define APP "controlroom"
!define WINDOW_EXE "controlroom-window.exe"
!define CLI_EXE "controlroom.exe"
!define DRIVERS_NOTES "USB-serial drivers.txt"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${APP}"
!define GAME_EXT ".crgame"
!define GAME_CLASS "controlroom.game"

Name "${APP} ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${APP}"
InstallDirRegKey HKCU "Software\${APP}" "InstallDir"
BrandingText "${APP} ${VERSION}"

!include "MUI2.nsh"
!include "FileFunc.nsh"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING

!define MUI_WELCOMEPAGE_TEXT "This installs ${APP} ${VERSION}, the control room for LARP battle games, for you alone: no administrator rights, no Python needed.$\r$\n$\r$\nThe next page explains the USB drivers for the LoRa gateways."
!insertmacro MUI_PAGE_WELCOME

; The drivers' notes, shown as an information page (a licence page with a Next button).
!define MUI_PAGE_HEADER_TEXT "USB LoRa gateways"
!define MUI_PAGE_HEADER_SUBTEXT "Drivers for the CP210x and CH340 USB-serial chips"
!define MUI_LICENSEPAGE_TEXT_TOP "Read this before the game: the field has no internet."
!define MUI_LICENSEPAGE_TEXT_BOTTOM "These notes are also installed next to controlroom and in the Start menu."
!define MUI_LICENSEPAGE_BUTTON "$(^NextBtn)"
!insertmacro MUI_PAGE_LICENSE "${DRIVERS_TXT}"

!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES

!define MUI_FINISHPAGE_RUN "$INSTDIR\${WINDOW_EXE}"
!define MUI_FINISHPAGE_RUN_TEXT "Start controlroom's demo battle"
!define MUI_FINISHPAGE_RUN_PARAMETERS "demo"
!define MUI_FINISHPAGE_SHOWREADME "$INSTDIR\${DRIVERS_NOTES}"
!define MUI_FINISHPAGE_SHOWREADME_TEXT "Show the USB driver notes"
!define MUI_FINISHPAGE_SHOWREADME_NOTCHECKED
!insertmacro MUI_PAGE_FINISH

!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"

Section "controlroom" SecMain
  SectionIn RO
  SetShellVarContext current
  SetOutPath "$INSTDIR"
  ; A new version replaces the bundled libraries rather than mixing with them.
  RMDir /r "$INSTDIR\_internal"
  File /r "${BUNDLE_DIR}\*"
  File "/oname=${DRIVERS_NOTES}" "${DRIVERS_TXT}"
  File "/oname=controlroom.ico" "${ICON}"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  ; Start menu (this user's).
  CreateDirectory "$SMPROGRAMS\${APP}"
  CreateShortcut "$SMPROGRAMS\${APP}\controlroom.lnk" "$INSTDIR\${WINDOW_EXE}" "" "$INSTDIR\controlroom.ico"
  CreateShortcut "$SMPROGRAMS\${APP}\controlroom demo battle.lnk" "$INSTDIR\${WINDOW_EXE}" "demo" "$INSTDIR\controlroom.ico"
  CreateShortcut "$SMPROGRAMS\${APP}\USB-serial drivers.lnk" "$INSTDIR\${DRIVERS_NOTES}"
  CreateShortcut "$SMPROGRAMS\${APP}\Uninstall controlroom.lnk" "$INSTDIR\uninstall.exe"

  ; Game files (*.crgame) open in the window, for this user.
  WriteRegStr HKCU "Software\Classes\${GAME_EXT}" "" "${GAME_CLASS}"
  WriteRegStr HKCU "Software\Classes\${GAME_EXT}" "Content Type" "application/x-controlroom-game"
  WriteRegStr HKCU "Software\Classes\${GAME_CLASS}" "" "controlroom game"
  WriteRegStr HKCU "Software\Classes\${GAME_CLASS}\DefaultIcon" "" "$INSTDIR\controlroom.ico"
  WriteRegStr HKCU "Software\Classes\${GAME_CLASS}\shell\open\command" "" '"$INSTDIR\${WINDOW_EXE}" --db "%1"'
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'

  ; Settings, Apps: uninstall entry.
  WriteRegStr HKCU "Software\${APP}" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "controlroom"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "controlroom"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\controlroom.ico"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  IntFmt $0 "0x%08X" $0
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" "$0"
SectionEnd

Section "Uninstall"
  SetShellVarContext current
  ; Only what the installer put there: games and settings live in the user's data folder and stay.
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\${CLI_EXE}"
  Delete "$INSTDIR\${WINDOW_EXE}"
  Delete "$INSTDIR\${DRIVERS_NOTES}"
  Delete "$INSTDIR\controlroom.ico"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"

  Delete "$SMPROGRAMS\${APP}\controlroom.lnk"
  Delete "$SMPROGRAMS\${APP}\controlroom demo battle.lnk"
  Delete "$SMPROGRAMS\${APP}\USB-serial drivers.lnk"
  Delete "$SMPROGRAMS\${APP}\Uninstall controlroom.lnk"
  RMDir "$SMPROGRAMS\${APP}"

  ; The file type, only if it still points at this install.
  ReadRegStr $0 HKCU "Software\Classes\${GAME_EXT}" ""
  StrCmp $0 "${GAME_CLASS}" 0 +2
    DeleteRegKey HKCU "Software\Classes\${GAME_EXT}"
  DeleteRegKey HKCU "Software\Classes\${GAME_CLASS}"
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'

  DeleteRegKey HKCU "${UNINSTALL_KEY}"
  DeleteRegKey HKCU "Software\${APP}"
SectionEnd
