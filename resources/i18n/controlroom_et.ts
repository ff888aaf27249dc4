<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="et_EE">
  <context>
    <name>alarms</name>
    <message>
      <source>{n} frames of {d} device(s) in the last minute</source>
      <translation>viimase minuti jooksul {n} kaadrit {d} seadmelt</translation>
    </message>
    <message>
      <source>{n} forged frames (wrong tag) claiming {d} device(s) in the last minute</source>
      <translation>viimase minuti jooksul {n} võltsitud kaadrit (vale tunnus) {d} seadme nimel</translation>
    </message>
    <message>
      <source>{n} replayed frames of {d} device(s) in the last minute</source>
      <translation>viimase minuti jooksul {n} kordusesitatud kaadrit {d} seadmelt</translation>
    </message>
    <message>
      <source>{n} frames from {d} unknown device(s) in the last minute</source>
      <translation>viimase minuti jooksul {n} kaadrit {d} tundmatult seadmelt</translation>
    </message>
    <message>
      <source>; the latest: {detail}</source>
      <translation>; viimane: {detail}</translation>
    </message>
    <message>
      <source>{who} in a weak spot ({where}): {n} of the last {of} reports needed retries</source>
      <translation>{who} on nõrga levi kohas ({where}): {n} viimasest {of} teatest vajasid kordamist</translation>
    </message>
    <message>
      <source>place not known</source>
      <translation>koht teadmata</translation>
    </message>
    <message>
      <source>the game is being stored again</source>
      <translation>mängu salvestatakse jälle</translation>
    </message>
    <message>
      <source>gateway {link} lost</source>
      <translation>lüüs {link} kadus</translation>
    </message>
    <message>
      <source>{source} has not been heard for {minutes} minutes</source>
      <translation>{source} pole {minutes} minutit kuulda olnud</translation>
    </message>
    <message>
      <source>unpleasant</source>
      <translation>ebameeldiv</translation>
    </message>
    <message>
      <source>injury</source>
      <translation>vigastus</translation>
    </message>
    <message>
      <source>danger</source>
      <translation>oht</translation>
    </message>
    <message>
      <source>{who}: {what} at {time} undone</source>
      <translation>{who}: {what} kell {time} tühistatud</translation>
    </message>
    <message>
      <source>{who}: {what} at {time}</source>
      <translation>{who}: {what} kell {time}</translation>
    </message>
    <message>
      <source>a late report changed the game: {changes}</source>
      <translation>hiline teade muutis mängu: {changes}</translation>
    </message>
    <message>
      <source> near {groups}</source>
      <translation> {groups} juures</translation>
    </message>
    <message>
      <source>STOPP {stopp} called for an injury or medical emergency</source>
      <translation>STOPP {stopp} hüütud vigastuse või meditsiinilise hädaolukorra tõttu</translation>
    </message>
    <message>
      <source>STOPP {stopp} has lasted too long</source>
      <translation>STOPP {stopp} on kestnud liiga kaua</translation>
    </message>
    <message>
      <source> by {name} (badge {badge}, {group})</source>
      <translation>, hüüdis {name} (märk {badge}, {group})</translation>
    </message>
    <message>
      <source> by badge {badge}</source>
      <translation>, hüüdis märk {badge}</translation>
    </message>
    <message>
      <source>{name} (badge {badge})</source>
      <translation>{name} (märk {badge})</translation>
    </message>
    <message>
      <source>STOPP {stopp} called ({reason})</source>
      <translation>STOPP {stopp} hüütud ({reason})</translation>
    </message>
  </context>
  <context>
    <name>argparse</name>
    <message>
      <source>usage: </source>
      <translation>kasutus: </translation>
    </message>
    <message>
      <source>positional arguments</source>
      <translation>positsioonilised argumendid</translation>
    </message>
    <message>
      <source>options</source>
      <translation>valikud</translation>
    </message>
    <message>
      <source>show this help message and exit</source>
      <translation>näita seda abiteksti ja lõpeta</translation>
    </message>
    <message>
      <source>%(prog)s: error: %(message)s
</source>
      <translation>%(prog)s: viga: %(message)s
</translation>
    </message>
    <message>
      <source>argument %(argument_name)s: %(message)s</source>
      <translation>argument %(argument_name)s: %(message)s</translation>
    </message>
    <message>
      <source>expected one argument</source>
      <translation>oodati üht argumenti</translation>
    </message>
    <message>
      <source>expected at most one argument</source>
      <translation>oodati kõige rohkem üht argumenti</translation>
    </message>
    <message>
      <source>expected at least one argument</source>
      <translation>oodati vähemalt üht argumenti</translation>
    </message>
    <message>
      <source>expected %s argument</source>
      <translation>oodati %s argumenti</translation>
    </message>
    <message>
      <source>expected %s arguments</source>
      <translation>oodati %s argumenti</translation>
    </message>
    <message>
      <source>invalid %(type)s value: %(value)r</source>
      <translation>vigane %(type)s väärtus: %(value)r</translation>
    </message>
    <message>
      <source>invalid choice: %(value)r (choose from %(choices)s)</source>
      <translation>vigane valik: %(value)r (vali nende seast: %(choices)s)</translation>
    </message>
    <message>
      <source>the following arguments are required: %s</source>
      <translation>need argumendid on kohustuslikud: %s</translation>
    </message>
    <message>
      <source>unrecognized arguments: %s</source>
      <translation>tundmatud argumendid: %s</translation>
    </message>
    <message>
      <source>ambiguous option: %(option)s could match %(matches)s</source>
      <translation>mitmetähenduslik valik: %(option)s võib tähendada %(matches)s</translation>
    </message>
    <message>
      <source>not allowed with argument %s</source>
      <translation>pole lubatud koos argumendiga %s</translation>
    </message>
    <message>
      <source>one of the arguments %s is required</source>
      <translation>üks argumentidest %s on kohustuslik</translation>
    </message>
    <message>
      <source>ignored explicit argument %r</source>
      <translation>eiratud otsene argument %r</translation>
    </message>
    <message>
      <source>can't open '%(filename)s': %(error)s</source>
      <translation>faili '%(filename)s' ei saa avada: %(error)s</translation>
    </message>
    <message>
      <source>unknown parser %(parser_name)r (choices: %(choices)s)</source>
      <translation>tundmatu käsk %(parser_name)r (valikud: %(choices)s)</translation>
    </message>
  </context>
  <context>
    <name>armour</name>
    <message>
      <source>over {mm:g} mm {material}</source>
      <translation>üle {mm:g} mm ({material})</translation>
    </message>
    <message>
      <source>at least {mm:g} mm {material}</source>
      <translation>vähemalt {mm:g} mm ({material})</translation>
    </message>
    <message>
      <source>{what}: wire {mm:g} mm ({requirement})</source>
      <translation>{what}: traat {mm:g} mm ({requirement})</translation>
    </message>
    <message>
      <source>{what}: thickness {mm:g} mm ({requirement})</source>
      <translation>{what}: paksus {mm:g} mm ({requirement})</translation>
    </message>
    <message>
      <source>{what}: wire {mm:g} mm meets Appendix 2's {requirement}</source>
      <translation>{what}: traat {mm:g} mm vastab 2. lisa nõudele {requirement}</translation>
    </message>
    <message>
      <source>{what}: thickness {mm:g} mm meets Appendix 2's {requirement}</source>
      <translation>{what}: paksus {mm:g} mm vastab 2. lisa nõudele {requirement}</translation>
    </message>
    <message>
      <source>{what}: wire {mm:g} mm is below Appendix 2's {requirement}</source>
      <translation>{what}: traat {mm:g} mm jääb alla 2. lisa nõude {requirement}</translation>
    </message>
    <message>
      <source>{what}: thickness {mm:g} mm is below Appendix 2's {requirement}</source>
      <translation>{what}: paksus {mm:g} mm jääb alla 2. lisa nõude {requirement}</translation>
    </message>
    <message>
      <source>no material minimum: the ruleset does not say what it is made of</source>
      <translation>materjali miinimumi pole: reeglistik ei ütle, millest see on tehtud</translation>
    </message>
    <message>
      <source>wire over {mm:g} mm</source>
      <translation>traat üle {mm:g} mm</translation>
    </message>
    <message>
      <source>{name} helmet</source>
      <translation>kiiver ({name})</translation>
    </message>
    <message>
      <source>{name} armour</source>
      <translation>turvis ({name})</translation>
    </message>
    <message>
      <source>{what}: not measured ({requirement})</source>
      <translation>{what}: mõõtmata ({requirement})</translation>
    </message>
  </context>
  <context>
    <name>cli</name>
    <message>
      <source>Control room for LARP battle games: live map, rule timers, radio, reports.</source>
      <translation>Juhtimiskeskus LARP-lahingumängudele: elav kaart, reeglitaimerid, raadio, aruanded.</translation>
    </message>
    <message>
      <source>the window (when no command is given)</source>
      <translation>aken (kui käsku ei anta)</translation>
    </message>
    <message>
      <source>show program's version number and exit</source>
      <translation>näita programmi versiooni ja lõpeta</translation>
    </message>
    <message>
      <source>the language to speak: en (English), et (eesti keel) (default: the system's, then English)</source>
      <translation>kasutatav keel: en (English), et (eesti keel) (vaikimisi süsteemi keel, muidu inglise)</translation>
    </message>
    <message>
      <source>the game to open (default: the last one, or ask)</source>
      <translation>avatav mäng (vaikimisi viimane, või küsitakse)</translation>
    </message>
    <message>
      <source>a gateway's serial port, or a stock Meshtastic node (meshtastic:/dev/ttyACM0, meshtastic-tcp:HOST); repeat for several (kept with the game: next time --db alone opens them)</source>
      <translation>lüüsi jadaport või tavaline Meshtastici sõlm (meshtastic:/dev/ttyACM0, meshtastic-tcp:HOST); mitme puhul korda (jäetakse mänguga meelde: järgmisel korral avab --db üksi need)</translation>
    </message>
    <message>
      <source>the field's map: an image with its world file and .prj or .aux.xml, a GeoTIFF, or MBTiles (kept with the game: next time --db alone shows it)</source>
      <translation>mänguvälja kaart: pilt koos world-faili ja .prj- või .aux.xml-failiga, GeoTIFF või MBTiles (jäetakse mänguga meelde: järgmisel korral näitab --db üksi seda)</translation>
    </message>
    <message>
      <source>no longer needed: the map places itself (deprecated)</source>
      <translation>pole enam vaja: kaart paigutab end ise (aegunud)</translation>
    </message>
    <message>
      <source>open as the Valhalla desk or the weapon-check desk instead of the map (View, Desk switches)</source>
      <translation>ava kaardi asemel Valhalla laud või relvakontrolli laud (Vaade, Laud vahetab)</translation>
    </message>
    <message>
      <source>replay the game read-only: scrub through it on the map (it may be running elsewhere)</source>
      <translation>taasesita mängu ainult lugedes: keri seda kaardil (see võib mujal samal ajal käia)</translation>
    </message>
    <message>
      <source>Run a scenario script, or a stored game, through the rules and print the outcome.</source>
      <translation>Läbi stsenaariumi skript või salvestatud mäng reeglitest ja trüki tulemus.</translation>
    </message>
    <message>
      <source>LoRa time on air of one handset frame; with --plan, check duty cycle, dwell time and collisions for a whole game.</source>
      <translation>Ühe käsiseadme kaadri LoRa eetriaeg; --plan-iga kontrolli kogu mängu töötsüklit, viibeaega ja kokkupõrkeid.</translation>
    </message>
    <message>
      <source>Import the registration desk's roster (CSV) into a game, or export a game's roster as CSV.</source>
      <translation>Impordi registreerimislaua nimekiri (CSV) mängu või ekspordi mängu nimekiri CSV-na.</translation>
    </message>
    <message>
      <source>Run a game without a window: rule timers, storage (and radio gateways, with --port).</source>
      <translation>Käita mängu ilma aknata: reeglitaimerid, salvestamine (ja raadiolüüsid, --port-iga).</translation>
    </message>
    <message>
      <source>Register marshal handsets, trackers and gateways, and export the file a device is provisioned with.</source>
      <translation>Registreeri marssalite käsiseadmed, jälgijad ja lüüsid ning ekspordi fail, millega seade seadistatakse.</translation>
    </message>
    <message>
      <source>Simulate a battle's LoRa gateways on pseudo-terminals or serial ports, to try a station without hardware.</source>
      <translation>Simuleeri lahingu LoRa-lüüse pseudoterminalidel või jadaportidel, et jaama ilma riistvarata proovida.</translation>
    </message>
    <message>
      <source>Show the control room on a simulated battle (two simulated gateways, some losses, one forger).</source>
      <translation>Näita juhtimiskeskust simuleeritud lahingus (kaks simuleeritud lüüsi, mõned kaod, üks võltsija).</translation>
    </message>
    <message>
      <source>Export the casualty report of a game: deaths per side and group, Valhalla, STOPPs, loot (PDF, CSV, XLSX).</source>
      <translation>Ekspordi mängu kaotuste aruanne: surmad poolte ja gruppide kaupa, Valhalla, STOPP-id, saak (PDF, CSV, XLSX).</translation>
    </message>
    <message>
      <source>Check a map file (image with world file, GeoTIFF, MBTiles): its coordinate system, extent, where a point falls.</source>
      <translation>Kontrolli kaardifaili (pilt world-failiga, GeoTIFF, MBTiles): selle koordinaatsüsteem, ulatus ja kuhu punkt langeb.</translation>
    </message>
    <message>
      <source>Export a game's tracks, casualties, STOPPs and siege engines for QGIS or Google Earth (GeoJSON, GPX, KML), or its radio coverage (--format coverage: GeoJSON cells or a GeoTIFF).</source>
      <translation>Ekspordi mängu rajad, kaotused, STOPP-id ja piiramismasinad QGIS-i või Google Earthi jaoks (GeoJSON, GPX, KML) või selle raadiolevi (--format coverage: GeoJSON-i ruudud või GeoTIFF).</translation>
    </message>
    <message>
      <source>Plan the gateways' radio coverage over the field before the game (Longley-Rice over a DEM, or free space).</source>
      <translation>Planeeri lüüside raadiolevi väljal enne mängu (Longley-Rice kõrgusmudeli järgi või vaba ruum).</translation>
    </message>
    <message>
      <source>scenario script: roster lines, then timed events (docs/replay-script.md)</source>
      <translation>stsenaariumi skript: nimekirja read, siis ajastatud sündmused (docs/replay-script.md)</translation>
    </message>
    <message>
      <source>replay a stored game (a game file or a database URL) instead of a script</source>
      <translation>taasesita skripti asemel salvestatud mäng (mängufail või andmebaasi URL)</translation>
    </message>
    <message>
      <source>stop the clock at this game time (HH:MM:SS); default: run until no rule timer is left</source>
      <translation>peata kell sellel mänguajal (HH:MM:SS); vaikimisi: kuni ühtki reeglitaimerit pole alles</translation>
    </message>
    <message>
      <source>print the final state as one JSON object</source>
      <translation>trüki lõppseis ühe JSON-objektina</translation>
    </message>
    <message>
      <source>ruleset profile: a bundled name or a .toml file (default: the script's, else the seed's)</source>
      <translation>reeglistiku profiil: kaasasoleva profiili nimi või .toml-fail (vaikimisi skripti oma, muidu algne)</translation>
    </message>
    <message>
      <source>list every problem of the script by line (unreadable lines and '# expect' comments), then compare the outcome with the '# expect' comments; exit 1 on any</source>
      <translation>loetle skripti kõik probleemid rea kaupa (loetamatud read ja '# expect' kommentaarid), siis võrdle tulemust '# expect' kommentaaridega; mõne vea korral väljumiskood 1</translation>
    </message>
    <message>
      <source>radio settings</source>
      <translation>raadio seaded</translation>
    </message>
    <message>
      <source>plan</source>
      <translation>plaan</translation>
    </message>
    <message>
      <source>spreading factor, 7..12 (6 needs --implicit-header); or give --meshtastic</source>
      <translation>hajutustegur, 7..12 (6 vajab --implicit-header'it); või anna --meshtastic</translation>
    </message>
    <message>
      <source>bandwidth in kHz (default 125)</source>
      <translation>ribalaius kHz-des (vaikimisi 125)</translation>
    </message>
    <message>
      <source>coding rate 1..4 meaning 4/5..4/8 (default 1)</source>
      <translation>kodeerimiskiirus 1..4 ehk 4/5..4/8 (vaikimisi 1)</translation>
    </message>
    <message>
      <source>preamble symbols (default 8)</source>
      <translation>preambuli sümboleid (vaikimisi 8)</translation>
    </message>
    <message>
      <source>frame payload in bytes, 0..255 (default 24)</source>
      <translation>kaadri andmeosa baitides, 0..255 (vaikimisi 24)</translation>
    </message>
    <message>
      <source>a stock Meshtastic modem preset (SHORT_TURBO, SHORT_FAST, SHORT_SLOW, MEDIUM_FAST, MEDIUM_SLOW, LONG_FAST, LONG_MODERATE, LONG_SLOW): its SF, bandwidth, coding rate and 16-symbol preamble; payload 25 bytes (a text report) unless given; plans in EU868 use sub-band g3 unless given</source>
      <translation>tavaline Meshtastici modemi eelseadistus (SHORT_TURBO, SHORT_FAST, SHORT_SLOW, MEDIUM_FAST, MEDIUM_SLOW, LONG_FAST, LONG_MODERATE, LONG_SLOW): selle hajutustegur, ribalaius, kodeerimiskiirus ja 16-sümboliline preambul; andmeosa 25 baiti (tekstiteade), kui pole antud; EU868 plaanid kasutavad alamsagedusala g3, kui pole antud</translation>
    </message>
    <message>
      <source>no LoRa header (time on air only; plans assume explicit)</source>
      <translation>LoRa päiseta (ainult eetriaeg; plaanid eeldavad päist)</translation>
    </message>
    <message>
      <source>payload CRC off (time on air only; plans assume CRC on)</source>
      <translation>andmeosa CRC väljas (ainult eetriaeg; plaanid eeldavad CRC-d)</translation>
    </message>
    <message>
      <source>print one JSON object</source>
      <translation>trüki üks JSON-objekt</translation>
    </message>
    <message>
      <source>check a whole game (needs --devices and --interval)</source>
      <translation>kontrolli tervet mängu (vajab --devices ja --interval)</translation>
    </message>
    <message>
      <source>handsets sending</source>
      <translation>saatvaid käsiseadmeid</translation>
    </message>
    <message>
      <source>seconds between frames of one handset</source>
      <translation>sekundeid ühe käsiseadme kaadrite vahel</translation>
    </message>
    <message>
      <source>regulatory region (default EU868)</source>
      <translation>regulatiivne piirkond (vaikimisi EU868)</translation>
    </message>
    <message>
      <source>EU868 sub-band: g1 868.0-868.6 MHz 1 %%, g2 868.7-869.2 MHz 0.1 %%, g3 869.4-869.65 MHz 10 %% (default g1)</source>
      <translation>EU868 alamsagedusala: g1 868,0-868,6 MHz 1 %%, g2 868,7-869,2 MHz 0,1 %%, g3 869,4-869,65 MHz 10 %% (vaikimisi g1)</translation>
    </message>
    <message>
      <source>channels the handsets spread over (default 1)</source>
      <translation>kanalid, mille vahel käsiseadmed jaotuvad (vaikimisi 1)</translation>
    </message>
    <message>
      <source>check a roster CSV against the game's rules and store it (all or nothing)</source>
      <translation>kontrolli nimekirja CSV-faili mängu reeglite järgi ja salvesta see (kõik või mitte midagi)</translation>
    </message>
    <message>
      <source>write the game's roster as CSV (UTF-8 with BOM, sorted by badge)</source>
      <translation>kirjuta mängu nimekiri CSV-na (UTF-8 BOM-iga, märgi järgi sorditud)</translation>
    </message>
    <message>
      <source>Check every row of a roster CSV against the game's ruleset and store the roster in one transaction; any problem is reported with its line and nothing is stored. Players are updated in place by badge; the game's events are never touched. The format: docs/roster-csv.md.</source>
      <translation>Kontrolli nimekirja CSV-faili iga rida mängu reeglistiku järgi ja salvesta nimekiri ühe tehinguna; iga probleem teatatakse koos reaga ja midagi ei salvestata. Mängijaid uuendatakse märgi järgi; mängu sündmusi ei puudutata kunagi. Vorming: docs/roster-csv.md.</translation>
    </message>
    <message>
      <source>the roster: UTF-8, comma, semicolon or tab separated, with a header row</source>
      <translation>nimekiri: UTF-8, koma, semikooloni või tabulaatoriga eraldatud, päisereaga</translation>
    </message>
    <message>
      <source>game file (created if missing) or database URL</source>
      <translation>mängufail (luuakse, kui puudub) või andmebaasi URL</translation>
    </message>
    <message>
      <source>keep stored players that are not in the file (default: remove them)</source>
      <translation>jäta alles salvestatud mängijad, keda failis pole (vaikimisi eemaldatakse)</translation>
    </message>
    <message>
      <source>Write the game's roster as CSV in the import format (UTF-8 with BOM, comma separated, sorted by badge); the file imports back to the same roster.</source>
      <translation>Kirjuta mängu nimekiri CSV-na impordivormingus (UTF-8 BOM-iga, komaga eraldatud, märgi järgi sorditud); fail impordib tagasi sama nimekirja.</translation>
    </message>
    <message>
      <source>game file or database URL</source>
      <translation>mängufail või andmebaasi URL</translation>
    </message>
    <message>
      <source>the CSV file to write (replaced if it exists)</source>
      <translation>kirjutatav CSV-fail (asendatakse, kui on olemas)</translation>
    </message>
    <message>
      <source>the game: a file or a database URL (default: the user's game file)</source>
      <translation>mäng: fail või andmebaasi URL (vaikimisi kasutaja mängufail)</translation>
    </message>
    <message>
      <source>a LoRa gateway's serial port (/dev/ttyUSB0, COM5, socket://host:port, usb:VID:PID), or a stock Meshtastic node (meshtastic:/dev/ttyACM0, meshtastic-tcp:HOST); repeat for several</source>
      <translation>LoRa-lüüsi jadaport (/dev/ttyUSB0, COM5, socket://host:port, usb:VID:PID) või tavaline Meshtastici sõlm (meshtastic:/dev/ttyACM0, meshtastic-tcp:HOST); mitme puhul korda</translation>
    </message>
    <message>
      <source>game seconds per real second (a fast simulation); default: real time, kept across restarts</source>
      <translation>mängusekundeid ühe päris sekundi kohta (kiire simulatsioon); vaikimisi päris aeg, mis säilib taaskäivitustel</translation>
    </message>
    <message>
      <source>stop cleanly after this many real seconds</source>
      <translation>lõpeta korrektselt pärast nii mitut päris sekundit</translation>
    </message>
    <message>
      <source>write the station's counters here when it stops</source>
      <translation>kirjuta jaama loendurid peatumisel siia</translation>
    </message>
    <message>
      <source>a shared game's local queue, for reports while the server cannot be reached (default: in the user's data folder)</source>
      <translation>jagatud mängu kohalik järjekord teadete jaoks, kui server pole kättesaadav (vaikimisi kasutaja andmekaustas)</translation>
    </message>
    <message>
      <source>print only alarms and who runs the timers</source>
      <translation>trüki ainult häired ja see, kes taimereid käitab</translation>
    </message>
    <message>
      <source>register a device with a fresh key (re-running keeps the key)</source>
      <translation>registreeri seade uue võtmega (uuesti käivitamine jätab võtme samaks)</translation>
    </message>
    <message>
      <source>whether Meshtastic reports must be PKI direct messages (docs/meshtastic.md)</source>
      <translation>kas Meshtasticu teated peavad olema PKI otsesõnumid (docs/meshtastic.md)</translation>
    </message>
    <message>
      <source>list the registered devices (keys are never shown)</source>
      <translation>loetle registreeritud seadmed (võtmeid ei näidata kunagi)</translation>
    </message>
    <message>
      <source>write the provisioning file for one device</source>
      <translation>kirjuta ühe seadme seadistusfail</translation>
    </message>
    <message>
      <source>the device number, 1 to 65534</source>
      <translation>seadme number, 1 kuni 65534</translation>
    </message>
    <message>
      <source>a name for the device, e.g. 'Marshal North 2'</source>
      <translation>seadme nimi, nt 'Marssal Põhi 2'</translation>
    </message>
    <message>
      <source>the group a tracker's leader belongs to</source>
      <translation>grupp, kuhu jälgija kandja kuulub</translation>
    </message>
    <message>
      <source>the siege engine a tracker is mounted on</source>
      <translation>piiramismasin, millele jälgija on paigaldatud</translation>
    </message>
    <message>
      <source>the marshal carrying a handset</source>
      <translation>käsiseadet kandev marssal</translation>
    </message>
    <message>
      <source>replace the device's key (a lost or stolen device)</source>
      <translation>asenda seadme võti (kadunud või varastatud seade)</translation>
    </message>
    <message>
      <source>the device is a stock Meshtastic node or phone, e.g. '!a1b2c3d4' (docs/meshtastic.md)</source>
      <translation>seade on tavaline Meshtastici sõlm või telefon, nt '!a1b2c3d4' (docs/meshtastic.md)</translation>
    </message>
    <message>
      <source>take text reports only as direct messages encrypted to the station's node (firmware 2.5+)</source>
      <translation>võta tekstiteateid vastu ainult jaama sõlmele krüpteeritud otsesõnumitena (püsivara 2.5+)</translation>
    </message>
    <message>
      <source>take text reports on a channel too (the default; marked as weaker in the window)</source>
      <translation>võta tekstiteateid vastu ka kanalil (vaikimisi; aknas märgitud nõrgemaks)</translation>
    </message>
    <message>
      <source>radio plan: region (default EU868)</source>
      <translation>raadioplaan: piirkond (vaikimisi EU868)</translation>
    </message>
    <message>
      <source>radio plan: sub_band (default g1)</source>
      <translation>raadioplaan: alamsagedusala (vaikimisi g1)</translation>
    </message>
    <message>
      <source>radio plan: freq (default 868.1)</source>
      <translation>raadioplaan: sagedus (vaikimisi 868.1)</translation>
    </message>
    <message>
      <source>radio plan: sf (default 9)</source>
      <translation>raadioplaan: hajutustegur (vaikimisi 9)</translation>
    </message>
    <message>
      <source>radio plan: bw (default 125)</source>
      <translation>raadioplaan: ribalaius (vaikimisi 125)</translation>
    </message>
    <message>
      <source>radio plan: cr (default 1)</source>
      <translation>raadioplaan: kodeerimiskiirus (vaikimisi 1)</translation>
    </message>
    <message>
      <source>radio plan: interval (default 120)</source>
      <translation>raadioplaan: intervall (vaikimisi 120)</translation>
    </message>
    <message>
      <source>radio plan: devices (default 40)</source>
      <translation>raadioplaan: seadmeid (vaikimisi 40)</translation>
    </message>
    <message>
      <source>radio plan: channels (default 3)</source>
      <translation>raadioplaan: kanaleid (vaikimisi 3)</translation>
    </message>
    <message>
      <source>the board the device runs on (default tbeam-v1.1-sx1276; see hardware/README.md)</source>
      <translation>plaat, millel seade töötab (vaikimisi tbeam-v1.1-sx1276; vt hardware/README.md)</translation>
    </message>
    <message>
      <source>propagation</source>
      <translation>levi</translation>
    </message>
    <message>
      <source>With --gateway or --dem the gateways hear each frame by the coverage plan's model (Longley-Rice over the DEM, or free space) instead of at random: frames from a radio shadow are lost, acknowledgements may not reach the handset, and it retries.</source>
      <translation>Võtmega --gateway või --dem kuulevad lüüsid iga kaadrit levi plaani mudeli järgi (Longley-Rice kõrgusmudeli järgi või vaba ruum), mitte juhuslikult: raadiovarjust saadetud kaadrid kaovad, kinnitused ei pruugi käsiseadmeni jõuda ja see saadab uuesti.</translation>
    </message>
    <message>
      <source>create one pseudo-terminal per gateway (Linux, macOS)</source>
      <translation>loo iga lüüsi jaoks pseudoterminal (Linux, macOS)</translation>
    </message>
    <message>
      <source>an existing serial port or pyserial URL, once per gateway (e.g. socket://host:4000)</source>
      <translation>olemasolev jadaport või pyseriali URL, üks iga lüüsi kohta (nt socket://host:4000)</translation>
    </message>
    <message>
      <source>register roster and devices (with keys) in this game first</source>
      <translation>registreeri kõigepealt nimekiri ja seadmed (koos võtmetega) selles mängus</translation>
    </message>
    <message>
      <source>the roster (when the game has none yet); default: generated</source>
      <translation>nimekiri (kui mängul seda veel pole); vaikimisi genereeritud</translation>
    </message>
    <message>
      <source>generated roster: sides (default 2)</source>
      <translation>genereeritud nimekiri: pooli (vaikimisi 2)</translation>
    </message>
    <message>
      <source>generated roster: groups in all, spread over the sides (default 6)</source>
      <translation>genereeritud nimekiri: gruppe kokku, jaotatud poolte vahel (vaikimisi 6)</translation>
    </message>
    <message>
      <source>generated roster: players in all (default 60)</source>
      <translation>genereeritud nimekiri: mängijaid kokku (vaikimisi 60)</translation>
    </message>
    <message>
      <source>the same seed plays the same battle (default: a random one, printed)</source>
      <translation>sama seeme mängib sama lahingu (vaikimisi juhuslik, trükitakse välja)</translation>
    </message>
    <message>
      <source>game seconds per real second (default 1: real time)</source>
      <translation>mängusekundeid ühe päris sekundi kohta (vaikimisi 1: päris aeg)</translation>
    </message>
    <message>
      <source>game minutes (default 60)</source>
      <translation>mänguminuteid (vaikimisi 60)</translation>
    </message>
    <message>
      <source>gateways with --pty (default 2); with --port, one per port</source>
      <translation>lüüse --pty-ga (vaikimisi 2); --port-iga üks iga pordi kohta</translation>
    </message>
    <message>
      <source>fraction of frames lost on air (0.05)</source>
      <translation>eetris kaotsi läinud kaadrite osa (0.05)</translation>
    </message>
    <message>
      <source>fraction of serial lines damaged on the way to the station (0.01)</source>
      <translation>teel jaama rikutud jadaridade osa (0.01)</translation>
    </message>
    <message>
      <source>forged frames (wrong tag) added, per frame sent (0)</source>
      <translation>lisatud võltsitud kaadreid (vale märgend) saadetud kaadri kohta (0)</translation>
    </message>
    <message>
      <source>old frames replayed by an attacker, per frame sent (0)</source>
      <translation>ründaja kordusesitatud vanu kaadreid saadetud kaadri kohta (0)</translation>
    </message>
    <message>
      <source>centre of the field (degrees)</source>
      <translation>mänguvälja keskpunkt (kraadides)</translation>
    </message>
    <message>
      <source>real seconds to wait for the last acks after the battle (3)</source>
      <translation>päris sekundeid viimaste kinnituste ootamiseks pärast lahingut (3)</translation>
    </message>
    <message>
      <source>write what was sent to the station here at the end</source>
      <translation>kirjuta lõpus siia, mis jaama saadeti</translation>
    </message>
    <message>
      <source>print only the first line (the ports)</source>
      <translation>trüki ainult esimene rida (pordid)</translation>
    </message>
    <message>
      <source>where each gateway stands, once per port (default: on a circle of 350 m, 2 m high)</source>
      <translation>kus iga lüüs seisab, üks iga pordi kohta (vaikimisi 350 m raadiusega ringil, 2 m kõrgusel)</translation>
    </message>
    <message>
      <source>the ground's heights (GeoTIFF, any coordinate system)</source>
      <translation>maapinna kõrgused (GeoTIFF, ükskõik millises koordinaatsüsteemis)</translation>
    </message>
    <message>
      <source>the spreading factor, 7 to 12 (default 9)</source>
      <translation>laotustegur, 7 kuni 12 (vaikimisi 9)</translation>
    </message>
    <message>
      <source>transmit power, dBm (default 14)</source>
      <translation>saatevõimsus, dBm (vaikimisi 14)</translation>
    </message>
    <message>
      <source>loss the terrain model does not know, dB (default 10)</source>
      <translation>kadu, mida maastikumudel ei tea, dB (vaikimisi 10)</translation>
    </message>
    <message>
      <source>slow fading drawn for each frame and gateway, standard deviation in dB (default 4)</source>
      <translation>iga kaadri ja lüüsi aeglane hääbumine, standardhälve dB-des (vaikimisi 4)</translation>
    </message>
    <message>
      <source>phones and trackers report through one fake stock Meshtastic node on a pty instead (with --pty; the first line is its port, meshtastic:/dev/pts/N; needs the meshtastic extra)</source>
      <translation>telefonid ja jälgijad teatavad hoopis ühe võlts-Meshtastici sõlme kaudu pty-l (koos --pty-ga; esimene rida on selle port, meshtastic:/dev/pts/N; vajab meshtastic-lisa)</translation>
    </message>
    <message>
      <source>the demo game file (default: a fresh one in the user's data folder)</source>
      <translation>demomängu fail (vaikimisi uus fail kasutaja andmekaustas)</translation>
    </message>
    <message>
      <source>game seconds per real second (default 10)</source>
      <translation>mängusekundeid ühe päris sekundi kohta (vaikimisi 10)</translation>
    </message>
    <message>
      <source>game minutes of battle (default 120)</source>
      <translation>lahingu mänguminuteid (vaikimisi 120)</translation>
    </message>
    <message>
      <source>close by itself after this many seconds</source>
      <translation>sulgu ise pärast nii mitut sekundit</translation>
    </message>
    <message>
      <source>save a picture of the window just before quitting</source>
      <translation>salvesta aknast pilt vahetult enne sulgemist</translation>
    </message>
    <message>
      <source>start in night mode (dark colours for a dark tent)</source>
      <translation>alusta öörežiimis (tumedad värvid pimedasse telki)</translation>
    </message>
    <message>
      <source>simulated gateways on local TCP ports (the default on Windows)</source>
      <translation>simuleeritud lüüsid kohalikel TCP-portidel (Windowsis vaikimisi)</translation>
    </message>
    <message>
      <source>the game (a game file or a database URL)</source>
      <translation>mäng (mängufail või andmebaasi URL)</translation>
    </message>
    <message>
      <source>the folder to write the report into</source>
      <translation>kaust, kuhu aruanne kirjutatakse</translation>
    </message>
    <message>
      <source>report one scenario only (default: the whole game)</source>
      <translation>aruanne ainult ühest stsenaariumist (vaikimisi kogu mäng)</translation>
    </message>
    <message>
      <source>which files to write, joined with commas: pdf, csv (three tables), xlsx (one workbook with a sheet per table); default pdf,csv</source>
      <translation>millised failid kirjutada, komadega ühendatult: pdf, csv (kolm tabelit), xlsx (üks töövihik, iga tabel oma lehel); vaikimisi pdf,csv</translation>
    </message>
    <message>
      <source>the CSV files' cell separator (default: what a spreadsheet in your language reads, ';' for Estonian, ',' for English; 'tab' for tabs)</source>
      <translation>CSV-failide lahtrite eraldaja (vaikimisi see, mida sinu keeles tabelarvutus loeb: eesti keeles ';', inglise keeles ','; 'tab' tabulaatori jaoks)</translation>
    </message>
    <message>
      <source>print where a WGS84 point falls on the map, in pixels</source>
      <translation>trüki, kuhu WGS84 punkt kaardil pikslites langeb</translation>
    </message>
    <message>
      <source>print the map's coordinate system, extent and resolution</source>
      <translation>trüki kaardi koordinaatsüsteem, ulatus ja eraldusvõime</translation>
    </message>
    <message>
      <source>Print the pixel (column, row) of a WGS84 point: from the image's top-left corner, pixel centres at .5. For MBTiles: pixels of the whole mosaic at the file's highest zoom, from the top-left of its extent.</source>
      <translation>Trüki WGS84 punkti piksel (veerg, rida): pildi ülemisest vasakust nurgast, pikslite keskpunktid kohal .5. MBTiles-faili puhul kogu mosaiigi pikslid faili suurimal suumil, ulatuse ülemisest vasakust nurgast.</translation>
    </message>
    <message>
      <source>the map: an image with its world file, a GeoTIFF or MBTiles</source>
      <translation>kaart: pilt koos world-failiga, GeoTIFF või MBTiles</translation>
    </message>
    <message>
      <source>latitude in decimal degrees (WGS84, as GPS gives it)</source>
      <translation>laiuskraad kümnendkraadides (WGS84, nagu GPS annab)</translation>
    </message>
    <message>
      <source>longitude in decimal degrees</source>
      <translation>pikkuskraad kümnendkraadides</translation>
    </message>
    <message>
      <source>print one JSON object {"x", "y", "crs"}</source>
      <translation>trüki üks JSON-objekt {"x", "y", "crs"}</translation>
    </message>
    <message>
      <source>the map's coordinate system, when no file beside it names it</source>
      <translation>kaardi koordinaatsüsteem, kui ükski kõrvalfail seda ei nimeta</translation>
    </message>
    <message>
      <source>geojson for QGIS, kml for Google Earth, gpx for GPS tools; coverage: the radio coverage observed, as cells (--out FILE.geojson) or a GeoTIFF (--out FILE.tif)</source>
      <translation>geojson QGIS-i jaoks, kml Google Earthi jaoks, gpx GPS-tööriistade jaoks; coverage: mõõdetud raadiolevi ruutudena (--out FAIL.geojson) või GeoTIFF-ina (--out FAIL.tif)</translation>
    </message>
    <message>
      <source>the file to write</source>
      <translation>kirjutatav fail</translation>
    </message>
    <message>
      <source>coverage: the spreading factor whose demodulation floor the margins are over (default 9)</source>
      <translation>coverage: laotustegur, mille demoduleerimispiiri suhtes varu arvestatakse (vaikimisi 9)</translation>
    </message>
    <message>
      <source>one scenario only (default: the whole game)</source>
      <translation>ainult üks stsenaarium (vaikimisi kogu mäng)</translation>
    </message>
    <message>
      <source>predict the margin over the map for gateways placed so</source>
      <translation>ennusta nii paigutatud lüüside varu kogu kaardil</translation>
    </message>
    <message>
      <source>Predict each gateway's coverage over the map: margin in dB per cell.</source>
      <translation>Ennusta iga lüüsi levi kaardil: varu dB-des iga ruudu kohta.</translation>
    </message>
    <message>
      <source>the field's map (an image with its world file, a GeoTIFF or MBTiles): the area planned</source>
      <translation>välja kaart (pilt koos maailmafailiga, GeoTIFF või MBTiles): planeeritav ala</translation>
    </message>
    <message>
      <source>the ground's heights as a GeoTIFF in any coordinate system (without it: free space)</source>
      <translation>maapinna kõrgused GeoTIFF-ina ükskõik millises koordinaatsüsteemis (ilma selleta: vaba ruum)</translation>
    </message>
    <message>
      <source>a gateway: WGS84 degrees and its antenna's height above the ground; repeat for each</source>
      <translation>lüüs: WGS84 kraadid ja selle antenni kõrgus maapinnast; korda iga lüüsi jaoks</translation>
    </message>
    <message>
      <source>the spreading factor the gateways use, 7 to 12 (default 9)</source>
      <translation>lüüside laotustegur, 7 kuni 12 (vaikimisi 9)</translation>
    </message>
    <message>
      <source>the handsets' transmit power in dBm (default 14)</source>
      <translation>käsiseadmete saatevõimsus dBm-des (vaikimisi 14)</translation>
    </message>
    <message>
      <source>loss the terrain model does not know (trees, tents, bodies), dB (default 10)</source>
      <translation>kadu, mida maastikumudel ei tea (puud, telgid, inimesed), dB (vaikimisi 10)</translation>
    </message>
    <message>
      <source>the cells' side (default 25 m)</source>
      <translation>ruudu külg (vaikimisi 25 m)</translation>
    </message>
  </context>
  <context>
    <name>coverage</name>
    <message>
      <source>model: {model}</source>
      <translation>mudel: {model}</translation>
    </message>
    <message>
      <source>{cells} cells of {cell:g} m; heard (margin 0 dB or more) in {share:.0f} % of them</source>
      <translation>{cells} ruutu küljega {cell:g} m; kuuldav (varu 0 dB või rohkem) {share:.0f} % neist</translation>
    </message>
    <message>
      <source>written: {files}</source>
      <translation>kirjutatud: {files}</translation>
    </message>
    <message>
      <source>  gateway {n} ({where}): {share:.0f} %</source>
      <translation>  lüüs {n} ({where}): {share:.0f} %</translation>
    </message>
    <message>
      <source>one more gateway would help most near {lat:.5f}, {lon:.5f}</source>
      <translation>üks lüüs veel aitaks kõige rohkem koha {lat:.5f}, {lon:.5f} lähedal</translation>
    </message>
    <message>
      <source>{game}: {cells} cells of radio coverage from {frames:.0f} frames ({marked} where frames needed retries or went missing) -&gt; {path}</source>
      <translation>{game}: {cells} raadiolevi ruutu {frames:.0f} kaadrist ({marked} ruudus vajasid kaadrid kordamist või jäid kuulmata) -&gt; {path}</translation>
    </message>
  </context>
  <context>
    <name>errors</name>
    <message>
      <source>give --sf N (a LoRa spreading factor) or --meshtastic PRESET</source>
      <translation>anna --sf N (LoRa laotustegur) või --meshtastic PRESET</translation>
    </message>
    <message>
      <source>--out must end in .tif or .png, not {name}</source>
      <translation>--out peab lõppema .tif või .png, mitte {name}</translation>
    </message>
    <message>
      <source>--cell is 5 to 500 metres, not {value:g}</source>
      <translation>--cell on 5 kuni 500 meetrit, mitte {value:g}</translation>
    </message>
    <message>
      <source>gateway {n} ({lat:.5f}, {lon:.5f}) is outside the map {map}: give its latitude first, then its longitude, in WGS84 degrees</source>
      <translation>lüüs {n} ({lat:.5f}, {lon:.5f}) on väljaspool kaarti {map}: anna kõigepealt laius, siis pikkus, WGS84 kraadides</translation>
    </message>
    <message>
      <source>{name} could not be written: {why}</source>
      <translation>{name} ei õnnestunud kirjutada: {why}</translation>
    </message>
    <message>
      <source>--scenario is not for --format coverage: the coverage is the whole game's</source>
      <translation>--scenario ei käi --format coverage juurde: levi on kogu mängu oma</translation>
    </message>
    <message>
      <source>--speed must be above 0</source>
      <translation>--speed peab olema üle 0</translation>
    </message>
    <message>
      <source>the radio plan will not work, so no device file was written:</source>
      <translation>raadioplaan ei toimi, nii et seadmefaili ei kirjutatud:</translation>
    </message>
    <message>
      <source>no device {device} in this game (see: controlroom keys list)</source>
      <translation>selles mängus pole seadet {device} (vaata: controlroom keys list)</translation>
    </message>
    <message>
      <source>the latitude must be a number of degrees between -90 and 90, not {value!r} (latitude first, then longitude)</source>
      <translation>laiuskraad peab olema kraadide arv vahemikus -90 kuni 90, mitte {value!r} (enne laius-, siis pikkuskraad)</translation>
    </message>
    <message>
      <source>the longitude must be a number of degrees between -180 and 180, not {value!r}</source>
      <translation>pikkuskraad peab olema kraadide arv vahemikus -180 kuni 180, mitte {value!r}</translation>
    </message>
    <message>
      <source>note: that point is outside the map ({width} x {height} pixels); latitude comes first, then longitude</source>
      <translation>märkus: see punkt on kaardist väljas ({width} x {height} pikslit); enne tuleb laius-, siis pikkuskraad</translation>
    </message>
    <message>
      <source>{map}: {lat}, {lon} has no place in {crs}</source>
      <translation>{map}: punktil {lat}, {lon} pole kohta süsteemis {crs}</translation>
    </message>
    <message>
      <source>{map}: {lat}, {lon} cannot be placed in {crs} ({problem})</source>
      <translation>{map}: punkti {lat}, {lon} ei saa paigutada süsteemi {crs} ({problem})</translation>
    </message>
    <message>
      <source>give a scenario script or --db GAME (one of them)</source>
      <translation>anna stsenaariumi skript või --db MÄNG (üks neist)</translation>
    </message>
    <message>
      <source>the report could not be written to {folder}: {problem}</source>
      <translation>aruannet ei saanud kirjutada kausta {folder}: {problem}</translation>
    </message>
    <message>
      <source>{game}: the game's ruleset cannot be read: {problem}</source>
      <translation>{game}: mängu reeglistikku ei saa lugeda: {problem}</translation>
    </message>
    <message>
      <source>--gateways must be 1 to 255</source>
      <translation>--gateways peab olema 1 kuni 255</translation>
    </message>
    <message>
      <source>--meshtastic plays a fake node on a pseudo-terminal: give --pty</source>
      <translation>--meshtastic mängib libasõlme pseudoterminalil: anna --pty</translation>
    </message>
    <message>
      <source>give --roster or --{option} (a generated roster), not both</source>
      <translation>anna --roster või --{option} (loodud nimekiri), mitte mõlemat</translation>
    </message>
    <message>
      <source>--gateways {gateways} but {ports} --port: give one --port per gateway</source>
      <translation>--gateways {gateways}, aga --port on {ports}: anna iga lüüsi jaoks üks --port</translation>
    </message>
    <message>
      <source>--origin {value} is not on the map</source>
      <translation>--origin {value} pole kaardil</translation>
    </message>
    <message>
      <source>--{option} must be above 0</source>
      <translation>--{option} peab olema üle 0</translation>
    </message>
    <message>
      <source>--{option} is a fraction from 0 to 1</source>
      <translation>--{option} on murdarv 0 kuni 1</translation>
    </message>
    <message>
      <source>--origin must be LAT,LON in degrees, not {value!r}</source>
      <translation>--origin peab olema LAT,LON kraadides, mitte {value!r}</translation>
    </message>
    <message>
      <source>cannot open the ports: {problem}</source>
      <translation>porte ei saa avada: {problem}</translation>
    </message>
    <message>
      <source>{n} --gateway for {ports} gateways: give one --gateway per gateway</source>
      <translation>{n} --gateway {ports} lüüsi jaoks: anna iga lüüsi kohta üks --gateway</translation>
    </message>
    <message>
      <source>cannot write {path}: {problem}</source>
      <translation>faili {path} ei saa kirjutada: {problem}</translation>
    </message>
    <message>
      <source>--replay needs the game: --db GAME</source>
      <translation>--replay vajab mängu: --db MÄNG</translation>
    </message>
    <message>
      <source>no game chosen</source>
      <translation>mängu ei valitud</translation>
    </message>
    <message>
      <source>--origin {value} is not a latitude and longitude on the map</source>
      <translation>--origin {value} pole laius- ja pikkuskraad kaardil</translation>
    </message>
    <message>
      <source>--origin takes LAT,LON in degrees, not {value!r}</source>
      <translation>--origin võtab LAT,LON kraadides, mitte {value!r}</translation>
    </message>
  </context>
  <context>
    <name>events</name>
    <message>
      <source>armour set</source>
      <translation>turvis määratud</translation>
    </message>
    <message>
      <source>bandage removed</source>
      <translation>side eemaldatud</translation>
    </message>
    <message>
      <source>big stone</source>
      <translation>suur kivi</translation>
    </message>
    <message>
      <source>bound</source>
      <translation>seotud</translation>
    </message>
    <message>
      <source>care ended</source>
      <translation>hoolitsus lõppes</translation>
    </message>
    <message>
      <source>cared for</source>
      <translation>hoolitsetud</translation>
    </message>
    <message>
      <source>died</source>
      <translation>suri</translation>
    </message>
    <message>
      <source>down</source>
      <translation>maas</translation>
    </message>
    <message>
      <source>healer touch</source>
      <translation>ravipuudutus</translation>
    </message>
    <message>
      <source>hp regained</source>
      <translation>elupunkt tagasi</translation>
    </message>
    <message>
      <source>hp set</source>
      <translation>elupunktid määratud</translation>
    </message>
    <message>
      <source>knocked out</source>
      <translation>uimastatud</translation>
    </message>
    <message>
      <source>looted</source>
      <translation>rüüstatud</translation>
    </message>
    <message>
      <source>permanent kill</source>
      <translation>lõplik tapmine</translation>
    </message>
    <message>
      <source>respawned</source>
      <translation>taassündinud</translation>
    </message>
    <message>
      <source>returned</source>
      <translation>tagastatud</translation>
    </message>
    <message>
      <source>strenuous</source>
      <translation>pingutus</translation>
    </message>
    <message>
      <source>strike</source>
      <translation>löök</translation>
    </message>
    <message>
      <source>valhalla checkin</source>
      <translation>Valhallas kirja pandud</translation>
    </message>
    <message>
      <source>weapon inspected</source>
      <translation>relv kontrollitud</translation>
    </message>
    <message>
      <source>woke</source>
      <translation>ärkas</translation>
    </message>
    <message>
      <source>stopp overdue</source>
      <translation>STOPP kestab liiga kaua</translation>
    </message>
    <message>
      <source>scenario started</source>
      <translation>stsenaarium algas</translation>
    </message>
    <message>
      <source>scenario ended</source>
      <translation>stsenaarium lõppes</translation>
    </message>
    <message>
      <source>stopp called</source>
      <translation>STOPP hüütud</translation>
    </message>
    <message>
      <source>stopp lifted</source>
      <translation>STOPP lõpetatud</translation>
    </message>
    <message>
      <source>note</source>
      <translation>märkus</translation>
    </message>
    <message>
      <source>roster added</source>
      <translation>nimekirja lisatud</translation>
    </message>
    <message>
      <source>retracted</source>
      <translation>tagasi võetud</translation>
    </message>
    <message>
      <source>position</source>
      <translation>asukoht</translation>
    </message>
    <message>
      <source>heartbeat</source>
      <translation>elumärk</translation>
    </message>
    <message>
      <source>headcount</source>
      <translation>pealugu</translation>
    </message>
    <message>
      <source>siege status</source>
      <translation>piiramismasina seis</translation>
    </message>
    <message>
      <source>message</source>
      <translation>sõnum</translation>
    </message>
    <message>
      <source>alarm acknowledged</source>
      <translation>häire kinnitatud</translation>
    </message>
    <message>
      <source>radio retried</source>
      <translation>raadio kordas</translation>
    </message>
  </context>
  <context>
    <name>radio</name>
    <message>
      <source>device {device} is not registered</source>
      <translation>seade {device} pole registreeritud</translation>
    </message>
    <message>
      <source>a {role} may not send {type}</source>
      <translation>{role} ei tohi saata: {type}</translation>
    </message>
    <message>
      <source>frame claiming to be from {role} {device} has a wrong tag (forged?)</source>
      <translation>kaadril, mis väidab end olevat seadmelt {role} {device}, on vale tunnus (võltsitud?)</translation>
    </message>
    <message>
      <source>frame {counter} of device {device} was heard long ago (replayed?)</source>
      <translation>seadme {device} kaader {counter} oli kuuldud ammu (kordusesitus?)</translation>
    </message>
    <message>
      <source>old counter {counter} from device {device} (highest {top})</source>
      <translation>vana loendur {counter} seadmelt {device} (suurim {top})</translation>
    </message>
  </context>
  <context>
    <name>report</name>
    <message>
      <source>north</source>
      <translation>põhjas</translation>
    </message>
    <message>
      <source>north-east</source>
      <translation>kirdes</translation>
    </message>
    <message>
      <source>east</source>
      <translation>idas</translation>
    </message>
    <message>
      <source>south-east</source>
      <translation>kagus</translation>
    </message>
    <message>
      <source>south</source>
      <translation>lõunas</translation>
    </message>
    <message>
      <source>south-west</source>
      <translation>edelas</translation>
    </message>
    <message>
      <source>west</source>
      <translation>läänes</translation>
    </message>
    <message>
      <source>north-west</source>
      <translation>loodes</translation>
    </message>
    <message>
      <source>{place}, {metres} m {direction}</source>
      <translation>{place}, {metres} m {direction}</translation>
    </message>
    <message>
      <source>square {square}</source>
      <translation>ruut {square}</translation>
    </message>
    <message>
      <source>rule timer</source>
      <translation>reeglite taimer</translation>
    </message>
    <message>
      <source>game master</source>
      <translation>mängujuht</translation>
    </message>
    <message>
      <source>scenario script</source>
      <translation>stsenaariumi skript</translation>
    </message>
    <message>
      <source>not lifted</source>
      <translation>tühistamata</translation>
    </message>
    <message>
      <source>the whole field</source>
      <translation>kogu väli</translation>
    </message>
    <message>
      <source>no events</source>
      <translation>sündmusi pole</translation>
    </message>
    <message>
      <source>the whole game</source>
      <translation>kogu mäng</translation>
    </message>
    <message>
      <source>game master {name}</source>
      <translation>mängujuht {name}</translation>
    </message>
    <message>
      <source>marshal handset {device}</source>
      <translation>marssali käsiseade {device}</translation>
    </message>
    <message>
      <source>tracker {device}</source>
      <translation>jälgija {device}</translation>
    </message>
    <message>
      <source>scenario {name}</source>
      <translation>stsenaarium {name}</translation>
    </message>
    <message>
      <source>groups {groups}</source>
      <translation>grupid {groups}</translation>
    </message>
    <message>
      <source>unpleasant</source>
      <translation>ebameeldiv</translation>
    </message>
    <message>
      <source>injury</source>
      <translation>vigastus</translation>
    </message>
    <message>
      <source>danger</source>
      <translation>oht</translation>
    </message>
    <message>
      <source>Casualty report</source>
      <translation>Kaotuste aruanne</translation>
    </message>
    <message>
      <source>Players</source>
      <translation>Mängijaid</translation>
    </message>
    <message>
      <source>Deaths</source>
      <translation>Surmad</translation>
    </message>
    <message>
      <source>Knock-outs</source>
      <translation>Uimastamised</translation>
    </message>
    <message>
      <source>Fell (0 HP)</source>
      <translation>Langes (0 EP)</translation>
    </message>
    <message>
      <source>Healed</source>
      <translation>Ravitud</translation>
    </message>
    <message>
      <source>Healer touches</source>
      <translation>Ravipuudutused</translation>
    </message>
    <message>
      <source>Valhalla check-ins</source>
      <translation>Valhalla kirjed</translation>
    </message>
    <message>
      <source>yes</source>
      <translation>jah</translation>
    </message>
    <message>
      <source>no</source>
      <translation>ei</translation>
    </message>
    <message>
      <source>destroyed</source>
      <translation>hävitatud</translation>
    </message>
    <message>
      <source>captured</source>
      <translation>vallutatud</translation>
    </message>
    <message>
      <source>Side</source>
      <translation>Pool</translation>
    </message>
    <message>
      <source>Badge</source>
      <translation>Märk</translation>
    </message>
    <message>
      <source>Log #</source>
      <translation>Logi nr</translation>
    </message>
    <message>
      <source>Game time</source>
      <translation>Mänguaeg</translation>
    </message>
    <message>
      <source>Key figures</source>
      <translation>Põhinäitajad</translation>
    </message>
    <message>
      <source>Summary per side</source>
      <translation>Kokkuvõte poolte kaupa</translation>
    </message>
    <message>
      <source>Deaths over game time</source>
      <translation>Surmad mänguaja jooksul</translation>
    </message>
    <message>
      <source>Summary per group</source>
      <translation>Kokkuvõte gruppide kaupa</translation>
    </message>
    <message>
      <source>Safety report</source>
      <translation>Ohutusaruanne</translation>
    </message>
    <message>
      <source>Siege engine losses</source>
      <translation>Piiramismasinate kaotused</translation>
    </message>
    <message>
      <source>{count} reports the rules did not apply, for the game masters' review (a sixth healer's touch, a strike on the dead, a loot without consent, a binding, care, healing or kill by someone unconscious or dead, a permanent kill not counted long enough), each with the rule it breaks.</source>
      <translation>{count} teadet, mida reeglid ei rakendanud, mängujuhtidele üle vaatamiseks (kuues ravipuudutus, löök surnule, rüüstamine ilma nõusolekuta, sidumine, hooldus, ravimine või tapmine teadvuseta või surnud tegelase poolt, piisavalt kaua lugemata püsitapmine), igaüks koos reegliga, mida see rikub.</translation>
    </message>
    <message>
      <source>Valhalla roster</source>
      <translation>Valhalla nimekiri</translation>
    </message>
    <message>
      <source>Every player who reported to Valhalla: name, side and number of deaths, as the rules require Valhalla to record.</source>
      <translation>Kõik Valhallasse ilmunud mängijad: nimi, pool ja surmade arv, nagu reeglid nõuavad Valhallal kirja panna.</translation>
    </message>
    <message>
      <source>Unreturned loot</source>
      <translation>Tagastamata saak</translation>
    </message>
    <message>
      <source>The looter is responsible for what they took until it is returned, even if they were looted in turn. Consent NOT GIVEN: taken without the player's permission.</source>
      <translation>Rüüstaja vastutab võetu eest, kuni see on tagastatud, ka siis, kui teda ennast omakorda rüüstati. Nõusolek ANDMATA: võetud mängija loata.</translation>
    </message>
    <message>
      <source>Corrections</source>
      <translation>Parandused</translation>
    </message>
    <message>
      <source>Reports a game master took back as wrong (a wrong badge, a report never made), with the reason. The figures of this report leave them out.</source>
      <translation>Teated, mille mängujuht valena tagasi võttis (vale märk, teade, mida ei tehtud), koos põhjusega. Selle aruande arvudes neid ei ole.</translation>
    </message>
    <message>
      <source>Appendix: rule warnings</source>
      <translation>Lisa: reeglihoiatused</translation>
    </message>
    <message>
      <source>Figure</source>
      <translation>Näitaja</translation>
    </message>
    <message>
      <source>Count</source>
      <translation>Arv</translation>
    </message>
    <message>
      <source>At the end of the game</source>
      <translation>Mängu lõpus</translation>
    </message>
    <message>
      <source>Group</source>
      <translation>Grupp</translation>
    </message>
    <message>
      <source>Nobody checked in at Valhalla.</source>
      <translation>Keegi ei pannud end Valhallas kirja.</translation>
    </message>
    <message>
      <source>All loot has been returned.</source>
      <translation>Kogu saak on tagastatud.</translation>
    </message>
    <message>
      <source>No report was corrected.</source>
      <translation>Ühtki teadet ei parandatud.</translation>
    </message>
    <message>
      <source>No rule warnings.</source>
      <translation>Reeglihoiatusi pole.</translation>
    </message>
    <message>
      <source>Fell to 0 hit points</source>
      <translation>Langes 0 elupunktini</translation>
    </message>
    <message>
      <source>Healed by a healer</source>
      <translation>Ravitseja ravitud</translation>
    </message>
    <message>
      <source>STOPP calls</source>
      <translation>STOPP-hüüded</translation>
    </message>
    <message>
      <source>STOPP calls ruled trivial</source>
      <translation>Tühiseks loetud STOPP-hüüded</translation>
    </message>
    <message>
      <source>Siege engines lost</source>
      <translation>Kaotatud piiramismasinad</translation>
    </message>
    <message>
      <source>Unreturned loot items</source>
      <translation>Tagastamata saagiesemed</translation>
    </message>
    <message>
      <source>Rule warnings</source>
      <translation>Reeglihoiatused</translation>
    </message>
    <message>
      <source>All sides</source>
      <translation>Kõik pooled</translation>
    </message>
    <message>
      <source>Deaths so far per side (up), by game time in hours and minutes (across).</source>
      <translation>Surmad seni poolte kaupa (püstteljel) mänguaja järgi tundides ja minutites (rõhtteljel).</translation>
    </message>
    <message>
      <source>Active</source>
      <translation>Mängus</translation>
    </message>
    <message>
      <source>Unconscious</source>
      <translation>Teadvuseta</translation>
    </message>
    <message>
      <source>Knocked out</source>
      <translation>Uimastatud</translation>
    </message>
    <message>
      <source>Dead</source>
      <translation>Surnud</translation>
    </message>
    <message>
      <source>In Valhalla</source>
      <translation>Valhallas</translation>
    </message>
    <message>
      <source>STOPP</source>
      <translation>STOPP</translation>
    </message>
    <message>
      <source>Called</source>
      <translation>Hüütud</translation>
    </message>
    <message>
      <source>Where</source>
      <translation>Kus</translation>
    </message>
    <message>
      <source>Called by</source>
      <translation>Hüüdja</translation>
    </message>
    <message>
      <source>Reason</source>
      <translation>Põhjus</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>Kestus</translation>
    </message>
    <message>
      <source>Trivial</source>
      <translation>Tühine</translation>
    </message>
    <message>
      <source>Reported by</source>
      <translation>Teataja</translation>
    </message>
    <message>
      <source>Engine</source>
      <translation>Masin</translation>
    </message>
    <message>
      <source>Lost as</source>
      <translation>Kaotus</translation>
    </message>
    <message>
      <source>Name</source>
      <translation>Nimi</translation>
    </message>
    <message>
      <source>Check-ins</source>
      <translation>Kirjed</translation>
    </message>
    <message>
      <source>First</source>
      <translation>Esimene</translation>
    </message>
    <message>
      <source>Last</source>
      <translation>Viimane</translation>
    </message>
    <message>
      <source>Looter</source>
      <translation>Rüüstaja</translation>
    </message>
    <message>
      <source>Owes to</source>
      <translation>Võlgneb</translation>
    </message>
    <message>
      <source>Consent</source>
      <translation>Nõusolek</translation>
    </message>
    <message>
      <source>Items</source>
      <translation>Esemed</translation>
    </message>
    <message>
      <source>Wrong report</source>
      <translation>Vale teade</translation>
    </message>
    <message>
      <source>By</source>
      <translation>Kes</translation>
    </message>
    <message>
      <source>Event</source>
      <translation>Sündmus</translation>
    </message>
    <message>
      <source>Rule</source>
      <translation>Reegel</translation>
    </message>
    <message>
      <source>Warning</source>
      <translation>Hoiatus</translation>
    </message>
    <message>
      <source>No siege engine was destroyed or captured.</source>
      <translation>Ühtki piiramismasinat ei hävitatud ega vallutatud.</translation>
    </message>
    <message>
      <source>NOT GIVEN</source>
      <translation>ANDMATA</translation>
    </message>
    <message>
      <source>given</source>
      <translation>antud</translation>
    </message>
    <message>
      <source>controlroom {version}, made {made}</source>
      <translation>controlroom {version}, koostatud {made}</translation>
    </message>
    <message>
      <source>Page {page} of {pages}</source>
      <translation>Lehekülg {page}/{pages}</translation>
    </message>
    <message>
      <source>Casualty report: {game}</source>
      <translation>Kaotuste aruanne: {game}</translation>
    </message>
    <message>
      <source>{scope} · {date} · rules: {rules} · game time 00:00:00 to {end} · {events} events</source>
      <translation>{scope} · {date} · reeglid: {rules} · mänguaeg 00:00:00 kuni {end} · sündmusi {events}</translation>
    </message>
    <message>
      <source>{calls} STOPP calls, {trivial} of them ruled trivial; the game stood still for {stopped} in all.</source>
      <translation>STOPP-hüüdeid {calls}, neist tühiseks loetud {trivial}; mäng seisis kokku {stopped}.</translation>
    </message>
    <message>
      <source>not reported</source>
      <translation>teatamata</translation>
    </message>
    <message>
      <source>not known</source>
      <translation>teadmata</translation>
    </message>
    <message>
      <source>Scenarios played: {names}</source>
      <translation>Mängitud stsenaariumid: {names}</translation>
    </message>
    <message>
      <source>log #{seq}</source>
      <translation>logi nr {seq}</translation>
    </message>
    <message>
      <source>{side}: {deaths} deaths</source>
      <translation>{side}: surmi {deaths}</translation>
    </message>
    <message>
      <source>not heard</source>
      <translation>ei kuulnud</translation>
    </message>
    <message>
      <source>Gateway</source>
      <translation>Lüüs</translation>
    </message>
    <message>
      <source>Cells heard</source>
      <translation>Kuuldud ruute</translation>
    </message>
    <message>
      <source>Frames heard</source>
      <translation>Kuuldud kaadreid</translation>
    </message>
    <message>
      <source>Mean margin</source>
      <translation>Keskmine varu</translation>
    </message>
    <message>
      <source>Radio coverage observed</source>
      <translation>Mõõdetud raadiolevi</translation>
    </message>
    <message>
      <source>Each cell of {cell} m is coloured by the best gateway's mean SNR margin over the SF{sf} demodulation floor, from {frames} frames sent from {cells} cells; crossed cells are where frames needed retries ({retried}) or went missing ({missed}). {weak} cells have less than 5 dB of margin.</source>
      <translation>Iga {cell} m ruut on värvitud parima lüüsi keskmise SNR-varu järgi SF{sf} demoduleerimispiiri suhtes, {cells} ruudust saadetud {frames} kaadri põhjal; ristiga ruutudes vajasid kaadrid kordamist ({retried}) või jäid kuulmata ({missed}). {weak} ruudus on varu alla 5 dB.</translation>
    </message>
    <message>
      <source>Casualties on the field map</source>
      <translation>Kaotused välikaardil</translation>
    </message>
    <message>
      <source>Deaths (filled) and falls to 0 hit points or knock-outs (rings) where they were reported, on the map {map}; a casualty without a position of its own is placed at its reporter's or its group's last position. A casualty reported with no position near it is not on these maps (the tables count every casualty).</source>
      <translation>Surmad (täidetud) ning langemised 0 elupunktini või uimastamised (rõngad) seal, kus neist teatati, kaardil {map}; oma asukohata kaotus on paigutatud teataja või tema grupi viimasesse asukohta. Kaotus, mille lähedal asukohta polnud, neil kaartidel ei ole (tabelid loevad kõiki kaotusi).</translation>
    </message>
    <message>
      <source>Grid squares of {step} m.</source>
      <translation>Ruudustiku ruudu külg {step} m.</translation>
    </message>
    <message>
      <source>{count} casualties were placed off this map and are not shown.</source>
      <translation>Kaotusi {count} jäi kaardilt välja ja neid ei näidata.</translation>
    </message>
    <message>
      <source>{side}: {deaths} deaths, {falls} falls placed</source>
      <translation>{side}: surmi {deaths}, langemisi {falls} paigutatud</translation>
    </message>
    <message>
      <source>{game} ({scope}, {date}): {deaths} deaths, {valhalla} in the Valhalla roster, {stopps} STOPPs, {warnings} rule warnings</source>
      <translation>{game} ({scope}, {date}): surmi {deaths}, Valhalla nimekirjas {valhalla}, STOPP-e {stopps}, reeglihoiatusi {warnings}</translation>
    </message>
  </context>
  <context>
    <name>roster</name>
    <message>
      <source>1 healer</source>
      <translation>1 ravitseja</translation>
    </message>
    <message>
      <source>1 paid member allows</source>
      <translation>1 makstud liige lubab</translation>
    </message>
    <message>
      <source>group {group} has {healers} but {paid} at most {limit} (one healer per five paid members)</source>
      <translation>grupil {group} on {healers}, aga {paid} kõige rohkem {limit} (üks ravitseja viie makstud liikme kohta)</translation>
    </message>
    <message>
      <source>{count} healers</source>
      <translation>{count} ravitsejat</translation>
    </message>
    <message>
      <source>{count} paid members allow</source>
      <translation>{count} makstud liiget lubavad</translation>
    </message>
    <message>
      <source> (and {count} already in the game)</source>
      <translation> (ja {count} on juba mängus)</translation>
    </message>
    <message>
      <source>group {group} is on side {side} in the game, not {other}</source>
      <translation>grupp {group} on mängus poolel {side}, mitte {other}</translation>
    </message>
    <message>
      <source>badge {badge} is already in the game as {name} ({group}), and this line differs in: {fields}; a game under way only takes new players</source>
      <translation>märk {badge} on mängus juba kui {name} ({group}) ja see rida erineb: {fields}; käimasolev mäng võtab vastu ainult uusi mängijaid</translation>
    </message>
    <message>
      <source>badge</source>
      <translation>märk</translation>
    </message>
    <message>
      <source>name</source>
      <translation>nimi</translation>
    </message>
    <message>
      <source>side</source>
      <translation>pool</translation>
    </message>
    <message>
      <source>group</source>
      <translation>grupp</translation>
    </message>
    <message>
      <source>class</source>
      <translation>klass</translation>
    </message>
    <message>
      <source>paid</source>
      <translation>makstud</translation>
    </message>
    <message>
      <source>helmet</source>
      <translation>kiiver</translation>
    </message>
    <message>
      <source>armour</source>
      <translation>turvis</translation>
    </message>
    <message>
      <source>hp</source>
      <translation>elupunktid</translation>
    </message>
    <message>
      <source>ap</source>
      <translation>turvisepunktid</translation>
    </message>
    <message>
      <source>inadequate</source>
      <translation>ebapiisav</translation>
    </message>
    <message>
      <source>line {line}: {problem}</source>
      <translation>rida {line}: {problem}</translation>
    </message>
    <message>
      <source>the roster</source>
      <translation>nimekiri</translation>
    </message>
    <message>
      <source>the file has a header row but no players</source>
      <translation>failis on päiserida, aga mitte ühtegi mängijat</translation>
    </message>
    <message>
      <source>{column} {value} is not a whole number above 0</source>
      <translation>{column} {value} ei ole täisarv üle 0</translation>
    </message>
    <message>
      <source>{column} {value} is not a whole number (0 or more)</source>
      <translation>{column} {value} ei ole täisarv (0 või rohkem)</translation>
    </message>
    <message>
      <source>healer on line {line}</source>
      <translation>ravitseja real {line}</translation>
    </message>
    <message>
      <source>healers on lines {lines}</source>
      <translation>ravitsejad ridadel {lines}</translation>
    </message>
    <message>
      <source>missing badge</source>
      <translation>märk puudub</translation>
    </message>
    <message>
      <source>unknown class {name} (this ruleset knows: {known})</source>
      <translation>tundmatu klass {name} (see reeglistik tunneb: {known})</translation>
    </message>
    <message>
      <source>unknown helmet {name} (known: {known})</source>
      <translation>tundmatu kiiver {name} (tuntud: {known})</translation>
    </message>
    <message>
      <source>{column} runs over several lines (is a closing quote missing?)</source>
      <translation>{column} ulatub üle mitme rea (kas lõpetav jutumärk puudub?)</translation>
    </message>
    <message>
      <source>missing {column}</source>
      <translation>{column} puudub</translation>
    </message>
    <message>
      <source>missing {column} (write yes or no)</source>
      <translation>{column} puudub (kirjuta jah või ei)</translation>
    </message>
    <message>
      <source>{column} {value} is not yes or no (accepted: {accepted})</source>
      <translation>{column} {value} ei ole jah ega ei (sobivad: {accepted})</translation>
    </message>
    <message>
      <source>unknown armour piece {name} (known: {known})</source>
      <translation>tundmatu turvise osa {name} (tuntud: {known})</translation>
    </message>
    <message>
      <source>the file is empty; its first line must name the columns: {columns}</source>
      <translation>fail on tühi; selle esimene rida peab nimetama veerud: {columns}</translation>
    </message>
    <message>
      <source>group {group} is on side {side} on line {line}, not {other}</source>
      <translation>grupp {group} on real {line} poolel {side}, mitte {other}</translation>
    </message>
    <message>
      <source>cannot write {path}: {error}</source>
      <translation>faili {path} ei saa kirjutada: {error}</translation>
    </message>
    <message>
      <source>{column} {value} contains a control character</source>
      <translation>{column} {value} sisaldab juhtmärki</translation>
    </message>
    <message>
      <source>{column} is longer than {count} characters</source>
      <translation>{column} on pikem kui {count} märki</translation>
    </message>
    <message>
      <source>missing column {column}</source>
      <translation>veerg {column} puudub</translation>
    </message>
    <message>
      <source>{cells} cells but the header names {columns} columns</source>
      <translation>lahtreid on {cells}, aga päis nimetab {columns} veergu</translation>
    </message>
    <message>
      <source>badge {badge} is already on line {line}</source>
      <translation>märk {badge} on juba real {line}</translation>
    </message>
    <message>
      <source>cannot read {name}: no such file</source>
      <translation>faili {name} ei saa lugeda: sellist faili pole</translation>
    </message>
    <message>
      <source>cannot read {name}: it is a folder, not a CSV file</source>
      <translation>faili {name} ei saa lugeda: see on kaust, mitte CSV-fail</translation>
    </message>
    <message>
      <source>cannot read {name}: {error}</source>
      <translation>faili {name} ei saa lugeda: {error}</translation>
    </message>
    <message>
      <source>{name} is not UTF-8 text; save it from the spreadsheet as 'CSV UTF-8' (comma or semicolon separated) and import it again</source>
      <translation>{name} ei ole UTF-8 tekst; salvesta see tabelarvutusprogrammist kujul „CSV UTF-8” (koma või semikooloniga eraldatud) ja impordi uuesti</translation>
    </message>
    <message>
      <source>column {column} appears twice</source>
      <translation>veerg {column} on kaks korda</translation>
    </message>
    <message>
      <source>the game is not open</source>
      <translation>mäng ei ole avatud</translation>
    </message>
    <message>
      <source>the game cannot be stored now ({error}); add the players once it is stored again</source>
      <translation>mängu ei saa praegu salvestada ({error}); lisa mängijad, kui salvestamine jälle töötab</translation>
    </message>
    <message>
      <source>the game's events kept on this laptop are not stored on the server yet; add the players when the server is back</source>
      <translation>selles sülearvutis hoitud mängusündmused pole veel serverisse salvestatud; lisa mängijad, kui server on tagasi</translation>
    </message>
    <message>
      <source>Roster imported: {players} ({added} added, {updated} updated, {removed} removed, {unchanged} unchanged) in {groups} on {sides}</source>
      <translation>Nimekiri imporditud: {players} ({added} lisatud, {updated} muudetud, {removed} eemaldatud, {unchanged} muutmata) {groups} {sides}</translation>
    </message>
    <message>
      <source>1 player</source>
      <translation>1 mängija</translation>
    </message>
    <message>
      <source>{count} players</source>
      <translation>{count} mängijat</translation>
    </message>
    <message>
      <source>1 group</source>
      <translation>1 grupis</translation>
    </message>
    <message>
      <source>{count} groups</source>
      <translation>{count} grupis</translation>
    </message>
    <message>
      <source>1 side</source>
      <translation>1 poolel</translation>
    </message>
    <message>
      <source>{count} sides</source>
      <translation>{count} poolel</translation>
    </message>
    <message>
      <source>1 problem</source>
      <translation>1 probleem</translation>
    </message>
    <message>
      <source>{count} problems</source>
      <translation>{count} probleemi</translation>
    </message>
    <message>
      <source>1 stored player</source>
      <translation>1 salvestatud mängija</translation>
    </message>
    <message>
      <source>{count} stored players</source>
      <translation>{count} salvestatud mängijat</translation>
    </message>
    <message>
      <source>; {players} not in the file kept</source>
      <translation>; alles jäeti {players}, keda failis pole</translation>
    </message>
    <message>
      <source>Roster exported: {players} in {groups} to {file}</source>
      <translation>Nimekiri eksporditud: {players} {groups} faili {file}</translation>
    </message>
    <message>
      <source>{file}: {problems}, nothing was imported:</source>
      <translation>{file}: {problems}, midagi ei imporditud:</translation>
    </message>
  </context>
  <context>
    <name>rules</name>
    <message>
      <source>unknown armour piece {piece} (known: {known})</source>
      <translation>tundmatu turvise osa {piece} (tuntud: {known})</translation>
    </message>
    <message>
      <source>unknown helmet {helmet} (known: {known})</source>
      <translation>tundmatu kiiver {helmet} (tuntud: {known})</translation>
    </message>
    <message>
      <source>there is no ruleset named {name} with controlroom</source>
      <translation>controlroomiga ei ole kaasas reeglistikku nimega {name}</translation>
    </message>
    <message>
      <source>{source}: not a valid TOML file: {error}</source>
      <translation>{source}: ei ole korrektne TOML-fail: {error}</translation>
    </message>
    <message>
      <source>unknown class {name} (this ruleset knows: {known})</source>
      <translation>tundmatu klass {name} (need reeglid tunnevad: {known})</translation>
    </message>
    <message>
      <source>cannot read the ruleset {path}: {error}</source>
      <translation>reeglistikku {path} ei saa lugeda: {error}</translation>
    </message>
  </context>
  <context>
    <name>store</name>
    <message>
      <source>the game database {url}</source>
      <translation>mänguandmebaas {url}</translation>
    </message>
    <message>
      <source>the game file {path}</source>
      <translation>mängufail {path}</translation>
    </message>
    <message>
      <source>the disk holding {where} is full. Free some space (or move the game to another disk); nothing already stored is lost and the events not yet stored are kept for a retry.</source>
      <translation>ketas, millel on {where}, on täis. Vabasta ruumi (või vii mäng teisele kettale); juba salvestatust ei lähe midagi kaduma ja veel salvestamata sündmused hoitakse uueks katseks alles.</translation>
    </message>
    <message>
      <source>{where} is read-only. Copy it to a folder you can write to, or check the USB stick's write-protect switch; nothing already stored is lost.</source>
      <translation>{where} on kirjutuskaitstud. Kopeeri see kausta, kuhu saad kirjutada, või kontrolli USB-pulga kirjutuskaitse lülitit; juba salvestatust ei lähe midagi kaduma.</translation>
    </message>
    <message>
      <source>cannot open {where}: check that the folder exists and can be written to.</source>
      <translation>ei saa avada: {where}. Kontrolli, et kaust on olemas ja sinna saab kirjutada.</translation>
    </message>
    <message>
      <source>{where} is locked by another program; close it and try again.</source>
      <translation>{where} on lukustatud teise programmi poolt; sulge see ja proovi uuesti.</translation>
    </message>
    <message>
      <source>{where} is not a controlroom game file (or it is damaged).</source>
      <translation>{where} ei ole controlroomi mängufail (või on see kahjustatud).</translation>
    </message>
    <message>
      <source>the database server refused the user name or password for {where}: check the user and password in the address (postgresql+psycopg://USER:PASSWORD@HOST/GAME).</source>
      <translation>andmebaasiserver ei võtnud vastu kasutajanime või parooli ({where}): kontrolli kasutajat ja parooli aadressis (postgresql+psycopg://KASUTAJA:PAROOL@SERVER/MÄNG).</translation>
    </message>
    <message>
      <source>{where} does not exist on the server: ask its administrator to create it (createdb GAME), then open it again.</source>
      <translation>{where} ei ole serveris olemas: palu serveri haldajal see luua (createdb GAME) ja ava siis uuesti.</translation>
    </message>
    <message>
      <source>cannot reach the database server for {where}: check the network cable or Wi-Fi, the address, and that the server runs. Radio reports keep arriving and are kept on this laptop until the server is back.</source>
      <translation>andmebaasiserverit ei saa kätte ({where}): kontrolli võrgukaablit või WiFi-t, aadressi ja et server töötab. Raadioteated saabuvad edasi ja hoitakse selles sülearvutis, kuni server on tagasi.</translation>
    </message>
  </context>
  <context>
    <name>warnings</name>
    <message>
      <source>a knock-out does not work on a target wearing a helmet</source>
      <translation>uimastamine ei mõju kiivrit kandvale sihtmärgile</translation>
    </message>
    <message>
      <source>a knock-out does not work when the target sees the attacker</source>
      <translation>uimastamine ei mõju, kui sihtmärk näeb ründajat</translation>
    </message>
    <message>
      <source>tag {tag} was recorded as passed, but its measurements fail Appendix 1{reasons}</source>
      <translation>silt {tag} märgiti läbituks, kuid selle mõõdud ei vasta 1. lisale{reasons}</translation>
    </message>
    <message>
      <source>tag {tag} was recorded as failed, but its measurements pass Appendix 1{reasons}</source>
      <translation>silt {tag} märgiti mitteläbinuks, kuid selle mõõdud vastavad 1. lisale{reasons}</translation>
    </message>
    <message>
      <source>tag {tag} was on badge {before}'s {kind} and is now on badge {now}'s</source>
      <translation>silt {tag} oli märgi {before} esemel ({kind}) ja on nüüd märgi {now} esemel</translation>
    </message>
    <message>
      <source>tag {tag}: {problem}</source>
      <translation>silt {tag}: {problem}</translation>
    </message>
    <message>
      <source>{role} badge {badge} is not in the roster</source>
      <translation>{role}: märki {badge} pole nimekirjas</translation>
    </message>
    <message>
      <source>badge {looter} looted badge {owner} without the player's permission: {items}</source>
      <translation>märk {looter} rüüstas märki {owner} ilma mängija loata: {items}</translation>
    </message>
    <message>
      <source>badge {looter} owes nothing to badge {owner}</source>
      <translation>märk {looter} ei võlgne märgile {owner} midagi</translation>
    </message>
    <message>
      <source>badge {looter} did not take {items} from badge {owner}</source>
      <translation>märk {looter} ei võtnud märgilt {owner} asju: {items}</translation>
    </message>
    <message>
      <source>an unconscious or dead character cannot interact with others in any way</source>
      <translation>teadvuseta või surnud tegelane ei saa teistega mingil moel suhelda</translation>
    </message>
    <message>
      <source>{name} (badge {badge})</source>
      <translation>{name} (märk {badge})</translation>
    </message>
    <message>
      <source>unknown event type {type!r}</source>
      <translation>tundmatu sündmuse tüüp {type!r}</translation>
    </message>
    <message>
      <source>{who} is dead: {what} does not apply</source>
      <translation>{who} on surnud: „{what}” ei kehti</translation>
    </message>
    <message>
      <source>{role} {who} is {condition}: {rule}</source>
      <translation>{role} {who} on {condition}: {rule}</translation>
    </message>
    <message>
      <source>{who} has all hit points: no wounds to bind</source>
      <translation>{who} on kõigi elupunktidega: pole haavu, mida siduda</translation>
    </message>
    <message>
      <source>{who} cannot care for themself</source>
      <translation>{who} ei saa iseenda eest hoolitseda</translation>
    </message>
    <message>
      <source>{who} must be tended and bound before being cared for</source>
      <translation>{who} tuleb enne hoolitsemist tohterdada ja siduda</translation>
    </message>
    <message>
      <source>{who} is a {cls}, not a healer</source>
      <translation>{who} on {cls}, mitte ravitseja</translation>
    </message>
    <message>
      <source>{who} is not bleeding out at this time</source>
      <translation>{who} ei ole praegu välja veritsemas</translation>
    </message>
    <message>
      <source>{who} was hacked for {counted:g} s counted aloud: a permanent kill takes at least {needed:g} s, counted loud and clear</source>
      <translation>{who} tükeldamist loeti valjult {counted:g} s: lõplik tapmine nõuab vähemalt {needed:g} s, loetuna valjult ja selgelt</translation>
    </message>
    <message>
      <source>{who} is not dead: only the dead report to Valhalla</source>
      <translation>{who} ei ole surnud: Valhallasse ilmuvad ainult surnud</translation>
    </message>
    <message>
      <source>{who} is not dead: nothing to respawn</source>
      <translation>{who} ei ole surnud: pole midagi taassünnitada</translation>
    </message>
    <message>
      <source>{who} is not due to respawn at this time</source>
      <translation>{who} aeg taassünniks pole praegu käes</translation>
    </message>
    <message>
      <source>{who} is not knocked out</source>
      <translation>{who} ei ole uimastatud</translation>
    </message>
    <message>
      <source>{who} is not due to regain a hit point</source>
      <translation>{who} aeg elupunkti tagasisaamiseks pole käes</translation>
    </message>
    <message>
      <source>badge {badge} is not in the roster</source>
      <translation>märki {badge} pole nimekirjas</translation>
    </message>
    <message>
      <source>{who} is {condition}: cannot take a big stone on a shield</source>
      <translation>{who} on {condition}: ei saa suurt kivi kilbiga vastu võtta</translation>
    </message>
    <message>
      <source>{who} is already {condition}</source>
      <translation>{who} on juba {condition}</translation>
    </message>
    <message>
      <source>{who} has already checked in at Valhalla</source>
      <translation>{who} on juba Valhallas end kirja pannud</translation>
    </message>
    <message>
      <source>{who} is not due to wake at this time</source>
      <translation>{who} aeg ärkamiseks pole praegu käes</translation>
    </message>
    <message>
      <source>{who}: {checks}: inadequate material, at most {most} armour points</source>
      <translation>{who}: {checks}: ebapiisav materjal, kõige rohkem {most} turvisepunkti</translation>
    </message>
    <message>
      <source>{who} already cares for {limit}: a healer may care for at most {limit} at once</source>
      <translation>{who} hoolitseb juba {limit} eest: ravitseja võib korraga hoolitseda kõige rohkem {limit} eest</translation>
    </message>
    <message>
      <source>healer {who} has used all {allowed} healing touches of this scenario</source>
      <translation>ravitseja {who} on selle stsenaariumi kõik {allowed} ravipuudutust ära kasutanud</translation>
    </message>
    <message>
      <source>STOPP {stopp!r} is already in force</source>
      <translation>STOPP {stopp!r} juba kehtib</translation>
    </message>
    <message>
      <source>no STOPP {stopp!r} is in force</source>
      <translation>STOPP {stopp!r} ei kehti</translation>
    </message>
    <message>
      <source>STOPP {stopp!r} is not overdue</source>
      <translation>STOPP {stopp!r} ei ole üle aja</translation>
    </message>
  </context>
  <context>
    <name>words</name>
    <message>
      <source>leather</source>
      <translation>nahk</translation>
    </message>
    <message>
      <source>metal</source>
      <translation>metall</translation>
    </message>
    <message>
      <source>chain</source>
      <translation>ahel</translation>
    </message>
    <message>
      <source>hardened leather</source>
      <translation>kõvendatud nahk</translation>
    </message>
    <message>
      <source>chain on gambeson</source>
      <translation>ahel vammusel</translation>
    </message>
    <message>
      <source>plate</source>
      <translation>plaat</translation>
    </message>
    <message>
      <source>brigandine</source>
      <translation>brigantiin</translation>
    </message>
    <message>
      <source>looter</source>
      <translation>rüüstaja</translation>
    </message>
    <message>
      <source>active</source>
      <translation>teadvusel</translation>
    </message>
    <message>
      <source>unconscious</source>
      <translation>teadvuseta</translation>
    </message>
    <message>
      <source>knocked out</source>
      <translation>uimastatud</translation>
    </message>
    <message>
      <source>dead</source>
      <translation>surnud</translation>
    </message>
    <message>
      <source>binder</source>
      <translation>siduja</translation>
    </message>
    <message>
      <source>carer</source>
      <translation>hooldaja</translation>
    </message>
    <message>
      <source>healer</source>
      <translation>ravitseja</translation>
    </message>
    <message>
      <source>killer</source>
      <translation>tapja</translation>
    </message>
    <message>
      <source>weapon</source>
      <translation>relv</translation>
    </message>
    <message>
      <source>ranged weapon</source>
      <translation>kaugrelv</translation>
    </message>
    <message>
      <source>arrow</source>
      <translation>nool</translation>
    </message>
    <message>
      <source>big stone</source>
      <translation>suur kivi</translation>
    </message>
    <message>
      <source>shield</source>
      <translation>kilp</translation>
    </message>
    <message>
      <source>siege engine</source>
      <translation>piiramismasin</translation>
    </message>
    <message>
      <source>siege arrow</source>
      <translation>piiramisnool</translation>
    </message>
  </context>
</TS>
