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
    <name>board</name>
    <message>
      <source>while entering its REPL (is MicroPython on it? hardware/README.md, section 3)</source>
      <translation>tema REPL-i sisenedes (kas sellel on MicroPython? hardware/README.md, 3. jagu)</translation>
    </message>
    <message>
      <source>while asking what it is</source>
      <translation>kui temalt küsiti, mis plaat see on</translation>
    </message>
    <message>
      <source>while it read its device file back</source>
      <translation>kui ta oma seadmefaili tagasi luges</translation>
    </message>
    <message>
      <source>while it was restarted</source>
      <translation>kui ta taaskäivitati</translation>
    </message>
    <message>
      <source>Its files are written; provision it again to see it confirm them.</source>
      <translation>Tema failid on kirjutatud; seadista ta uuesti, et ta need kinnitaks.</translation>
    </message>
    <message>
      <source>Its device file is the one it had before, or none; provision it again.</source>
      <translation>Tema seadmefail on see, mis tal enne oli, või puudub; seadista ta uuesti.</translation>
    </message>
    <message>
      <source>the board on {port} stopped answering {stage}: {why} (was the cable pulled?) {kept}</source>
      <translation>plaat pordis {port} lõpetas vastamise {stage}: {why} (kas kaabel tõmmati välja?) {kept}</translation>
    </message>
    <message>
      <source>while opening {port}</source>
      <translation>pordi {port} avamisel</translation>
    </message>
    <message>
      <source>cannot open {port}: {why}</source>
      <translation>porti {port} ei saa avada: {why}</translation>
    </message>
    <message>
      <source>while {file} was copied</source>
      <translation>kui faili {file} kopeeriti</translation>
    </message>
    <message>
      <source>the board on {port} is an {found} ({machine}), but the device is to run on an {chip} board: plug in the right board, or change the device's board in the list</source>
      <translation>plaat pordis {port} on {found} ({machine}), kuid seade peab töötama {chip}-plaadil: ühenda õige plaat või muuda seadmete nimekirjas seadme plaati</translation>
    </message>
    <message>
      <source>the board on {port} refused {stage}: {why}</source>
      <translation>plaat pordis {port} keeldus {stage}: {why}</translation>
    </message>
    <message>
      <source>{file} arrived damaged on the board (its checksum differs): try another USB cable</source>
      <translation>{file} jõudis plaadile vigasena (kontrollsumma erineb): proovi teist USB-kaablit</translation>
    </message>
  </context>
  <context>
    <name>cards</name>
    <message>
      <source>Someone calls STOPP: everyone stops at once, is silent and drops on one knee.</source>
      <translation>Keegi hüüab STOPP: kõik peatuvad kohe, jäävad vaikseks ja laskuvad ühele põlvele.</translation>
    </message>
    <message>
      <source>Whoever moves into the stopped area is bound by it too.</source>
      <translation>Kes liigub peatatud alale, on samuti peatusega seotud.</translation>
    </message>
    <message>
      <source>Only for out-of-game trouble: an unpleasant situation, an injury or illness, a danger.</source>
      <translation>Ainult mänguvälise mure korral: ebameeldiv olukord, vigastus või haigus, oht.</translation>
    </message>
    <message>
      <source>Never for in-game trouble, nor for someone else's injury: they call it themselves.</source>
      <translation>Mitte kunagi mängusisese mure ega kellegi teise vigastuse pärast: tema hüüab ise.</translation>
    </message>
    <message>
      <source>The game goes on when the caller or the game masters see all ready and give the signal.</source>
      <translation>Mäng jätkub, kui hüüdja või mängujuhid näevad, et kõik on valmis, ja annavad märku.</translation>
    </message>
    <message>
      <source>A STOPP called in a fight: the caller is unconscious (0 HP) afterwards.</source>
      <translation>Lahingus hüütud STOPP: hüüdja on pärast seda teadvusetu (0 EP).</translation>
    </message>
    <message>
      <source>Marshal card</source>
      <translation>Marssali kaart</translation>
    </message>
    <message>
      <source>Marshal</source>
      <translation>Marssal</translation>
    </message>
    <message>
      <source>badge {badge}</source>
      <translation>märk {badge}</translation>
    </message>
    <message>
      <source>Handset {device}</source>
      <translation>Käsiseade {device}</translation>
    </message>
    <message>
      <source>Group</source>
      <translation>Rühm</translation>
    </message>
    <message>
      <source>none</source>
      <translation>puudub</translation>
    </message>
    <message>
      <source>Handset keys</source>
      <translation>Käsiseadme klahvid</translation>
    </message>
    <message>
      <source>On a Meshtastic phone, type</source>
      <translation>Meshtasticu telefonis kirjuta</translation>
    </message>
    <message>
      <source>STOPP</source>
      <translation>STOPP</translation>
    </message>
    <message>
      <source>Scan: device and game</source>
      <translation>Skanni: seade ja mäng</translation>
    </message>
    <message>
      <source>badge A #</source>
      <translation>märk A #</translation>
    </message>
    <message>
      <source>down</source>
      <translation>maas</translation>
    </message>
    <message>
      <source>badge A A #</source>
      <translation>märk A A #</translation>
    </message>
    <message>
      <source>died</source>
      <translation>suri</translation>
    </message>
    <message>
      <source>badge B #</source>
      <translation>märk B #</translation>
    </message>
    <message>
      <source>knocked out</source>
      <translation>uimastatud</translation>
    </message>
    <message>
      <source>badge B B # (killer #)</source>
      <translation>märk B B # (tapja #)</translation>
    </message>
    <message>
      <source>permanently killed</source>
      <translation>lõplikult tapetud</translation>
    </message>
    <message>
      <source>badge C # (binder #)</source>
      <translation>märk C # (siduja #)</translation>
    </message>
    <message>
      <source>bound</source>
      <translation>haavad seotud</translation>
    </message>
    <message>
      <source>badge C C # healer #</source>
      <translation>märk C C # ravitseja #</translation>
    </message>
    <message>
      <source>healed by a healer's touch</source>
      <translation>ravitseja puudutusega ravitud</translation>
    </message>
    <message>
      <source>badge D #</source>
      <translation>märk D #</translation>
    </message>
    <message>
      <source>Valhalla check-in</source>
      <translation>Valhallasse registreerimine</translation>
    </message>
    <message>
      <source>STOPP, then 1 / 2 / 3</source>
      <translation>STOPP, siis 1 / 2 / 3</translation>
    </message>
    <message>
      <source>STOPP: unpleasant / injury / danger</source>
      <translation>STOPP: ebameeldiv / vigastus / oht</translation>
    </message>
    <message>
      <source>caller's badge, STOPP, 1-3</source>
      <translation>hüüdja märk, STOPP, 1-3</translation>
    </message>
    <message>
      <source>STOPP, with who called it</source>
      <translation>STOPP koos hüüdjaga</translation>
    </message>
    <message>
      <source>STOPP STOPP</source>
      <translation>STOPP STOPP</translation>
    </message>
    <message>
      <source>STOPP at once (danger)</source>
      <translation>STOPP kohe (oht)</translation>
    </message>
    <message>
      <source>STOPP # #</source>
      <translation>STOPP # #</translation>
    </message>
    <message>
      <source>lift this handset's STOPP</source>
      <translation>lõpeta selle käsiseadme STOPP</translation>
    </message>
    <message>
      <source>*</source>
      <translation>*</translation>
    </message>
    <message>
      <source>back one step; clear</source>
      <translation>samm tagasi; tühjenda</translation>
    </message>
    <message>
      <source>down (MAAS 123)</source>
      <translation>maas (ka MAAS 123)</translation>
    </message>
    <message>
      <source>dead (SURNUD 123)</source>
      <translation>surnud (ka SURNUD 123)</translation>
    </message>
    <message>
      <source>bound, by badge 45 (SEOTUD)</source>
      <translation>seotud, sidus märk 45 (ka SEOTUD)</translation>
    </message>
    <message>
      <source>STOPP: danger, injury or unpleasant</source>
      <translation>STOPP: oht, vigastus või ebameeldiv (OHT, VIGASTUS, EBAMEELDIV)</translation>
    </message>
    <message>
      <source>lift your last STOPP (LÕPP, JÄTKA)</source>
      <translation>lõpeta oma viimane STOPP (ka LÕPP, JÄTKA)</translation>
    </message>
    <message>
      <source>headcount: up, down, dead (PEALUGU)</source>
      <translation>pealugu: püsti, maas, surnud (ka PEALUGU)</translation>
    </message>
    <message>
      <source>the grammar in one line (ABI)</source>
      <translation>kõik käsud ühel real (ka ABI)</translation>
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
      <source>send the battle to a TAK server or client as Cursor-on-Target: tcp://HOST:PORT, tls://HOST:PORT (with --tak-cert and --tak-key), udp://HOST:PORT; add ?proto=1 for TAK protocol 1 (protobuf); repeat for several (docs/tak.md)</source>
      <translation>saada lahing TAK-serverile või -kliendile Cursor-on-Targetina: tcp://HOST:PORT, tls://HOST:PORT (koos --tak-cert ja --tak-key), udp://HOST:PORT; TAK-protokolli 1 (protobuf) jaoks lisa ?proto=1; mitme jaoks korda (docs/tak.md)</translation>
    </message>
    <message>
      <source>the station's client certificate for tls:// (PEM)</source>
      <translation>jaama kliendisertifikaat tls:// jaoks (PEM)</translation>
    </message>
    <message>
      <source>the key of --tak-cert (PEM)</source>
      <translation>--tak-cert sertifikaadi võti (PEM)</translation>
    </message>
    <message>
      <source>the certificate authority the tls:// server's certificate is checked against (PEM)</source>
      <translation>sertifitseerimiskeskus, mille järgi tls:// serveri sertifikaati kontrollitakse (PEM)</translation>
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
      <source>open as the Valhalla desk, the weapon-check desk or the Devices desk instead of the map (View, Desk switches)</source>
      <translation>ava kaardi asemel Valhalla laud, relvakontrolli laud või seadmete laud (Vaade, Laud vahetab)</translation>
    </message>
    <message>
      <source>replay the game read-only: scrub through it on the map (it may be running elsewhere)</source>
      <translation>taasesita mängu ainult lugedes: keri seda kaardil (see võib mujal samal ajal käia)</translation>
    </message>
    <message>
      <source>serve the live web view for field staff on HOST:PORT (127.0.0.1:8080 when only the port or nothing follows; 0.0.0.0:8080 puts it on the tent's Wi-Fi); off unless given</source>
      <translation>paku väljal töötajatele otsevaadet veebis aadressil HOST:PORT (127.0.0.1:8080, kui järgneb ainult port või mitte midagi; 0.0.0.0:8080 paneb selle telgi WiFi-sse); vaikimisi väljas</translation>
    </message>
    <message>
      <source>serve the web view over HTTPS with this certificate (PEM)</source>
      <translation>paku veebivaadet HTTPS-iga selle sertifikaadiga (PEM)</translation>
    </message>
    <message>
      <source>the private key of --web-cert (PEM)</source>
      <translation>--web-cert'i privaatvõti (PEM)</translation>
    </message>
    <message>
      <source>serve the web view over HTTPS with a self-signed certificate (made once, kept in the user's data folder; the invites show its fingerprint)</source>
      <translation>paku veebivaadet HTTPS-iga isetehtud sertifikaadiga (tehakse üks kord ja hoitakse kasutaja andmekaustas; kutsed näitavad selle sõrmejälge)</translation>
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
      <source>Import the registration desk's roster (CSV or .xlsx) into a game, or export a game's roster as CSV.</source>
      <translation>Impordi registreerimislaua nimekiri (CSV või .xlsx) mängu või ekspordi mängu nimekiri CSV-na.</translation>
    </message>
    <message>
      <source>Run a game without a window: rule timers, storage (and radio gateways, with --port; TAK, with --tak).</source>
      <translation>Käita mängu ilma aknata: reeglitaimerid, salvestamine (ja raadiolüüsid, --port abil; TAK, --tak abil).</translation>
    </message>
    <message>
      <source>Register marshal handsets, trackers and gateways, and export the file a device is provisioned with.</source>
      <translation>Registreeri marssalite käsiseadmed, jälgijad ja lüüsid ning ekspordi fail, millega seade seadistatakse.</translation>
    </message>
    <message>
      <source>Set up a game's devices at once: import their list, see which are ready, provision boards, print marshal cards.</source>
      <translation>Seadista mängu seadmed korraga: impordi nende nimekiri, vaata, millised on valmis, seadista plaadid, prindi marssalikaardid.</translation>
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
      <source>Export a game's tracks, casualties, STOPPs and siege engines for QGIS or Google Earth (GeoJSON, GPX, KML), the game as a TAK data package (map, places, Valhalla and HQ markers, server) for ATAK, or its radio coverage (--format coverage: GeoJSON cells or a GeoTIFF).</source>
      <translation>Ekspordi mängu teekonnad, kaotused, STOPP-id ja piiramismasinad QGIS-i või Google Earthi jaoks (GeoJSON, GPX, KML), mäng TAK-andmepaketina (kaart, kohad, Valhalla ja staabi märgid, server) ATAK-i jaoks või selle raadiolevi (--format coverage: GeoJSON-i ruudud või GeoTIFF).</translation>
    </message>
    <message>
      <source>Invite field staff to the station's web view (a link and a QR code per person), list or revoke invites.</source>
      <translation>Kutsu väljal töötajad jaama veebivaatesse (link ja QR-kood igaühele), näita või tühista kutseid.</translation>
    </message>
    <message>
      <source>Set what TAK clients see of a game: each side's affiliation (friend, hostile, neutral) and team colour, the TAK server for the data package, how often an object is sent (docs/tak.md).</source>
      <translation>Määra, mida TAK-kliendid mängust näevad: iga poole kuuluvus (sõber, vaenlane, neutraalne) ja meeskonna värv, andmepaketi TAK-server, kui tihti objekti saadetakse (docs/tak.md).</translation>
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
      <source>check a roster (CSV or .xlsx) against the game's rules and store it (all or nothing)</source>
      <translation>kontrolli nimekirja (CSV või .xlsx) mängu reeglite järgi ja salvesta see (kõik või mitte midagi)</translation>
    </message>
    <message>
      <source>write the game's roster as CSV (UTF-8 with BOM, sorted by badge)</source>
      <translation>kirjuta mängu nimekiri CSV-na (UTF-8 BOM-iga, märgi järgi sorditud)</translation>
    </message>
    <message>
      <source>Check every row of a roster CSV or workbook against the game's ruleset and store the roster in one transaction; any problem is reported with its line and nothing is stored. Players are updated in place by badge; the game's events are never touched. The format: docs/roster-csv.md.</source>
      <translation>Kontrolli nimekirja CSV-faili või töövihiku iga rida mängu reeglistiku järgi ja salvesta nimekiri ühe tehinguna; iga probleem teatatakse koos reaga ja midagi ei salvestata. Mängijaid uuendatakse märgi järgi; mängu sündmusi ei puudutata kunagi. Vorming: docs/roster-csv.md.</translation>
    </message>
    <message>
      <source>the roster: CSV (UTF-8, comma, semicolon or tab separated) or an .xlsx workbook (its first sheet), with a header row</source>
      <translation>nimekiri: CSV (UTF-8, koma, semikooloni või tabulaatoriga eraldatud) või .xlsx-töövihik (selle esimene leht), päisereaga</translation>
    </message>
    <message>
      <source>what the file's own headers and words mean: the JSON the window's import dialog remembers, e.g. {"values": {"helmet": {"jah": "metal"}}} (docs/roster-csv.md)</source>
      <translation>mida faili enda päised ja sõnad tähendavad: sama JSON, mille akna impordidialoog meelde jätab, nt {"values": {"helmet": {"jah": "metal"}}} (docs/roster-csv.md)</translation>
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
      <source>the marshal's TAK phone (ATAK, iTAK, WinTAK) by the uid of its position reports, e.g. 'ANDROID-1a2b3c4d5e6f' (docs/tak.md)</source>
      <translation>marssali TAK-telefon (ATAK, iTAK, WinTAK) selle asukohateadete uid järgi, nt 'ANDROID-1a2b3c4d5e6f' (docs/tak.md)</translation>
    </message>
    <message>
      <source>the marshal's TAK phone by the callsign set in it (docs/tak.md)</source>
      <translation>marssali TAK-telefon sellesse seatud kutsungi järgi (docs/tak.md)</translation>
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
      <source>the language the station answers the marshals' texts in: en, et, or station (the language of the station that answers: the default)</source>
      <translation>keel, milles jaam marssalite tekstidele vastab: en, et või station (vastava jaama keel: vaikimisi)</translation>
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
      <source>register every device of a list (CSV or .xlsx) in one go, each with a fresh key</source>
      <translation>registreeri nimekirja (CSV või .xlsx) kõik seadmed korraga, igaüks uue võtmega</translation>
    </message>
    <message>
      <source>every device: registered, provisioned, heard, battery, last heard, signal</source>
      <translation>kõik seadmed: registreeritud, seadistatud, kuuldud, aku, viimati kuuldud, signaal</translation>
    </message>
    <message>
      <source>write the firmware and a device's file to a board on USB, and have the board confirm it</source>
      <translation>kirjuta püsivara ja seadme fail USB-ga ühendatud plaadile ning lase plaadil see kinnitada</translation>
    </message>
    <message>
      <source>a PDF of marshal cards, four to an A4 page</source>
      <translation>marssalikaartide PDF, neli A4-leheküljel</translation>
    </message>
    <message>
      <source>Check every row of a device list and register its devices in one transaction; any problem is reported with its line and nothing is stored. A new device gets a fresh key (never printed); one registered before keeps its key. The format: docs/devices.md.</source>
      <translation>Kontrolli seadmete nimekirja iga rida ja registreeri selle seadmed ühe tehinguga; iga probleem öeldakse koos reaga ja midagi ei salvestata. Uus seade saab uue võtme (seda ei trükita kunagi); varem registreeritud seade jääb oma võtme juurde. Vorming: docs/devices.md.</translation>
    </message>
    <message>
      <source>the list: a CSV file (UTF-8, comma, semicolon or tab separated) or an .xlsx workbook, with a header row</source>
      <translation>nimekiri: CSV-fail (UTF-8, eraldajaks koma, semikoolon või tabulaator) või .xlsx-töövihik, päisereaga</translation>
    </message>
    <message>
      <source>one JSON object per device, in a list</source>
      <translation>üks JSON-objekt seadme kohta, loendina</translation>
    </message>
    <message>
      <source>Write the firmware, codec.py and the device's file to a MicroPython board through its raw REPL, have the board read its device file back (firmware version and key fingerprint) and restart it. The key goes to the board only: no key file is written on this computer.</source>
      <translation>Kirjuta püsivara, codec.py ja seadme fail MicroPythoni plaadile tema toor-REPL-i kaudu, lase plaadil oma seadmefail tagasi lugeda (püsivara versioon ja võtme sõrmejälg) ja taaskäivita ta. Võti läheb ainult plaadile: sellesse arvutisse võtmefaili ei kirjutata.</translation>
    </message>
    <message>
      <source>the device to provision</source>
      <translation>seadistatav seade</translation>
    </message>
    <message>
      <source>the next device not yet provisioned</source>
      <translation>järgmine veel seadistamata seade</translation>
    </message>
    <message>
      <source>the board's serial port (default: the one board plugged in)</source>
      <translation>plaadi jadaport (vaikimisi: ainus ühendatud plaat)</translation>
    </message>
    <message>
      <source>One card per marshal's handset: the marshal, the device, the group, the handset's keys and the text grammar, the STOPP rule in short, and a QR code with the device id and the game's name (never the key).</source>
      <translation>Üks kaart iga marssali käsiseadme kohta: marssal, seade, grupp, käsiseadme klahvid ja tekstiteadete kuju, STOPP-reegel lühidalt ning QR-kood seadme numbri ja mängu nimega (mitte kunagi võtmega).</translation>
    </message>
    <message>
      <source>the PDF to write (replaced if it exists)</source>
      <translation>kirjutatav PDF (olemasolev asendatakse)</translation>
    </message>
    <message>
      <source>the cards' language (default: the one spoken)</source>
      <translation>kaartide keel (vaikimisi: kasutatav keel)</translation>
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
      <source>geojson for QGIS, kml for Google Earth, gpx for GPS tools, tak for a TAK data package (a .zip ATAK imports in one step); coverage: the radio coverage observed, as cells (--out FILE.geojson) or a GeoTIFF (--out FILE.tif)</source>
      <translation>geojson QGIS-i jaoks, kml Google Earthi jaoks, gpx GPS-tööriistade jaoks, tak TAK-andmepaketi jaoks (.zip, mille ATAK impordib ühe sammuga); coverage: mõõdetud raadiolevi ruutudena (--out FAIL.geojson) või GeoTIFF-ina (--out FAIL.tif)</translation>
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
      <source>invite someone: prints the link, writes its QR code (PNG) beside it</source>
      <translation>kutsu keegi: trükib lingi ja kirjutab selle QR-koodi (PNG) kõrvale</translation>
    </message>
    <message>
      <source>list the invites (tokens are never shown: the game keeps only their hashes)</source>
      <translation>näita kutseid (märgiseid ei näidata kunagi: mäng hoiab ainult nende räsisid)</translation>
    </message>
    <message>
      <source>revoke a person's invite: open pages lose the view within 2 seconds</source>
      <translation>tühista inimese kutse: avatud lehed kaotavad vaate 2 sekundi jooksul</translation>
    </message>
    <message>
      <source>viewer: sees the battle; safety: and acknowledges safety alarms; valhalla: checks the dead in; marshal: reports as a handset does</source>
      <translation>viewer: näeb lahingut; safety: ka kinnitab ohutushäireid; valhalla: registreerib surnuid; marshal: teatab nagu käsiseade</translation>
    </message>
    <message>
      <source>who it is for (revoke it by this name)</source>
      <translation>kellele see on (tühista selle nimega)</translation>
    </message>
    <message>
      <source>the invitee's own badge, if a player</source>
      <translation>kutsutu enda märk, kui ta on mängija</translation>
    </message>
    <message>
      <source>the link stops working at this time (the next time it comes)</source>
      <translation>link lakkab töötamast sel kellaajal (kui see järgmine kord kätte jõuab)</translation>
    </message>
    <message>
      <source>where the station's web view is reached, as given to --web (default 127.0.0.1:8080); on the tent's Wi-Fi: this laptop's address there</source>
      <translation>kus jaama veebivaade on kättesaadav, nagu --web-ile antud (vaikimisi 127.0.0.1:8080); telgi WiFi-s: selle sülearvuti aadress seal</translation>
    </message>
    <message>
      <source>the station serves HTTPS (--web-cert, or --web-self-signed): the link is https and the certificate's fingerprint is shown</source>
      <translation>jaam pakub HTTPS-i (--web-cert või --web-self-signed): link on https ja näidatakse sertifikaadi sõrmejälge</translation>
    </message>
    <message>
      <source>the certificate the station serves (default: its self-signed one)</source>
      <translation>sertifikaat, mida jaam kasutab (vaikimisi selle isetehtud sertifikaat)</translation>
    </message>
    <message>
      <source>where the QR code is written (default: the current folder)</source>
      <translation>kuhu QR-kood kirjutatakse (vaikimisi praegune kaust)</translation>
    </message>
    <message>
      <source>print {"url", "token", "role", "name", "qr"} as JSON</source>
      <translation>trüki {"url", "token", "role", "name", "qr"} JSON-ina</translation>
    </message>
    <message>
      <source>print them as JSON</source>
      <translation>trüki need JSON-ina</translation>
    </message>
    <message>
      <source>a side's affiliation on TAK maps: f (friend), h (hostile), n (neutral, the default), u (unknown)...; repeat for each side</source>
      <translation>poole kuuluvus TAK-kaartidel: f (sõber), h (vaenlane), n (neutraalne, vaikimisi), u (tundmatu)...; korda iga poole jaoks</translation>
    </message>
    <message>
      <source>a side's team colour on TAK maps: White, Yellow, Orange, Magenta, Red, Maroon, Purple, Dark Blue, Blue, Cyan, Teal, Green, Dark Green or Brown; repeat for each side</source>
      <translation>poole meeskonna värv TAK-kaartidel: White, Yellow, Orange, Magenta, Red, Maroon, Purple, Dark Blue, Blue, Cyan, Teal, Green, Dark Green või Brown; korda iga poole jaoks</translation>
    </message>
    <message>
      <source>the TAK server the data package points phones to (tcp://HOST:PORT or tls://HOST:PORT)</source>
      <translation>TAK-server, millele andmepakett telefonid suunab (tcp://HOST:PORT või tls://HOST:PORT)</translation>
    </message>
    <message>
      <source>the data package names no TAK server</source>
      <translation>andmepakett ei nimeta TAK-serverit</translation>
    </message>
    <message>
      <source>send each object at most once per this many seconds (default 5)</source>
      <translation>saada iga objekti kõige rohkem kord nii mitme sekundi jooksul (vaikimisi 5)</translation>
    </message>
    <message>
      <source>the ground each fighter of a group covers, for the group's footprint (default 20 m²)</source>
      <translation>maa-ala, mille iga grupi võitleja katab, grupi jalajälje jaoks (vaikimisi 20 m²)</translation>
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
      <source>{cells} cells of {cell:g} m; heard (margin 0 dB or more) in {share:.0f} % of them</source>
      <translation>{cells} ruutu küljega {cell:g} m; kuuldav (varu 0 dB või rohkem) {share:.0f} % neist</translation>
    </message>
    <message>
      <source>model: {model}</source>
      <translation>mudel: {model}</translation>
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
    <name>devices</name>
    <message>
      <source>id</source>
      <translation>seadme nr</translation>
    </message>
    <message>
      <source>role</source>
      <translation>roll</translation>
    </message>
    <message>
      <source>label</source>
      <translation>silt</translation>
    </message>
    <message>
      <source>group</source>
      <translation>rühm</translation>
    </message>
    <message>
      <source>engine</source>
      <translation>piiramismasin</translation>
    </message>
    <message>
      <source>board</source>
      <translation>plaat</translation>
    </message>
    <message>
      <source>marshal</source>
      <translation>marssal</translation>
    </message>
    <message>
      <source>badge</source>
      <translation>märk</translation>
    </message>
    <message>
      <source>meshtastic</source>
      <translation>sõlm</translation>
    </message>
    <message>
      <source>missing id</source>
      <translation>seadme number puudub</translation>
    </message>
    <message>
      <source>missing role (marshal, tracker or gateway)</source>
      <translation>roll puudub (marshal, tracker või gateway; marssal, jälgija või lüüs)</translation>
    </message>
    <message>
      <source>a Meshtastic node runs its own firmware: leave its board empty</source>
      <translation>Meshtasticu sõlmel on oma püsivara: jäta tema plaat tühjaks</translation>
    </message>
    <message>
      <source>a gateway belongs to no group, engine or marshal, and is no Meshtastic node</source>
      <translation>lüüs ei kuulu ühelegi rühmale, piiramismasinale ega marssalile ega ole Meshtasticu sõlm</translation>
    </message>
    <message>
      <source>a device is with a group or on a siege engine, not both</source>
      <translation>seade on kas rühma juures või piiramismasinal, mitte mõlemas</translation>
    </message>
    <message>
      <source>only a marshal's handset has a marshal</source>
      <translation>marssal on ainult marssali käsiseadmel</translation>
    </message>
    <message>
      <source>a badge without the marshal's name</source>
      <translation>märk ilma marssali nimeta</translation>
    </message>
    <message>
      <source>the file is empty; its first line must name the columns: {columns}</source>
      <translation>fail on tühi; selle esimene rida peab nimetama veerud: {columns}</translation>
    </message>
    <message>
      <source>the file has a header row but no devices</source>
      <translation>failis on päiserida, kuid ühtki seadet pole</translation>
    </message>
    <message>
      <source>device {value} is already on line {line}</source>
      <translation>seade {value} on juba real {line}</translation>
    </message>
    <message>
      <source>Meshtastic node {value} is already on line {line}</source>
      <translation>Meshtasticu sõlm {value} on juba real {line}</translation>
    </message>
    <message>
      <source>unknown board {board} (boards: {boards})</source>
      <translation>tundmatu plaat {board} (plaadid: {boards})</translation>
    </message>
    <message>
      <source>{column} runs over several lines (is a closing quote missing?)</source>
      <translation>{column} ulatub üle mitme rea (kas lõpujutumärk on puudu?)</translation>
    </message>
    <message>
      <source>{column} {value} is not a whole number from {low} to {high}</source>
      <translation>{column} {value} ei ole täisarv vahemikus {low} kuni {high}</translation>
    </message>
    <message>
      <source>unknown role {role} (roles: {roles})</source>
      <translation>tundmatu roll {role} (rollid: {roles})</translation>
    </message>
    <message>
      <source>a {board} cannot be a {role}: it has no GPS or keypad (use a T-Beam)</source>
      <translation>{board} ei saa olla {role}: sellel pole GPS-i ega klaviatuuri (kasuta T-Beami)</translation>
    </message>
    <message>
      <source>missing column {column}</source>
      <translation>veerg {column} puudub</translation>
    </message>
    <message>
      <source>{column} {value} contains a control character</source>
      <translation>{column} {value} sisaldab juhtmärki</translation>
    </message>
    <message>
      <source>{cells} cells but the header names {columns} columns</source>
      <translation>{cells} lahtrit, kuid päis nimetab {columns} veergu</translation>
    </message>
    <message>
      <source>column {column} appears twice</source>
      <translation>veerg {column} on kaks korda</translation>
    </message>
    <message>
      <source>{column} is longer than {count} characters</source>
      <translation>{column} on pikem kui {count} märki</translation>
    </message>
    <message>
      <source>unknown group {group}: import the roster with it first</source>
      <translation>tundmatu rühm {group}: impordi enne seda rühma sisaldav mängijate nimekiri</translation>
    </message>
    <message>
      <source>Meshtastic node {node} is device {other} already</source>
      <translation>Meshtasticu sõlm {node} on juba seade {other}</translation>
    </message>
    <message>
      <source>marshal / group</source>
      <translation>marssal / rühm</translation>
    </message>
    <message>
      <source>provisioned</source>
      <translation>seadistatud</translation>
    </message>
    <message>
      <source>first heard</source>
      <translation>esmakordselt kuuldud</translation>
    </message>
    <message>
      <source>last heard</source>
      <translation>viimati kuuldud</translation>
    </message>
    <message>
      <source>battery</source>
      <translation>aku</translation>
    </message>
    <message>
      <source>signal</source>
      <translation>signaal</translation>
    </message>
    <message>
      <source>no</source>
      <translation>ei</translation>
    </message>
    <message>
      <source>no frame counter yet</source>
      <translation>kaadriloendurit veel pole</translation>
    </message>
    <message>
      <source>no: provisioned with an older key ({fingerprint})</source>
      <translation>ei: seadistatud vanema võtmega ({fingerprint})</translation>
    </message>
    <message>
      <source>no marshal handsets in this game: no cards to print (controlroom devices import FILE)</source>
      <translation>selles mängus pole marssalite käsiseadmeid: pole kaarte, mida printida (controlroom devices import FAIL)</translation>
    </message>
    <message>
      <source>Devices imported: {count} ({added} added with fresh keys, {updated} updated, {unchanged} unchanged): {marshal} marshal handsets, {tracker} trackers, {gateway} gateways</source>
      <translation>Seadmed imporditud: {count} ({added} lisatud uute võtmetega, {updated} muudetud, {unchanged} muutmata): marssalite käsiseadmeid {marshal}, jälgijaid {tracker}, lüüse {gateway}</translation>
    </message>
    <message>
      <source>n/a (Meshtastic node {node})</source>
      <translation>ei kohaldu (Meshtasticu sõlm {node})</translation>
    </message>
    <message>
      <source>yes (firmware {firmware}, key {fingerprint})</source>
      <translation>jah (püsivara {firmware}, võti {fingerprint})</translation>
    </message>
    <message>
      <source>failed: {why}</source>
      <translation>ebaõnnestus: {why}</translation>
    </message>
    <message>
      <source>{count} devices: {provisioned} provisioned, {heard} heard</source>
      <translation>seadmeid {count}: seadistatud {provisioned}, kuuldud {heard}</translation>
    </message>
    <message>
      <source>none</source>
      <translation>mitte ühtki</translation>
    </message>
    <message>
      <source>frame counter kept at {counter}</source>
      <translation>kaadriloendur jäi väärtusele {counter}</translation>
    </message>
    <message>
      <source>device {device} ({role}) provisioned on {port}: firmware {firmware}, key {fingerprint}, as the board read them back; {counter}; {sent} file(s) sent. The board restarts now.</source>
      <translation>seade {device} ({role}) seadistatud pordis {port}: püsivara {firmware}, võti {fingerprint}, nagu plaat need tagasi luges; {counter}; saadetud faile: {sent}. Plaat taaskäivitub nüüd.</translation>
    </message>
    <message>
      <source>{count} marshal card(s) on {pages} page(s): {path}</source>
      <translation>marssalikaarte {count}, lehekülgi {pages}: {path}</translation>
    </message>
    <message>
      <source>{file}: {count} problem(s), nothing was imported:</source>
      <translation>{file}: probleeme {count}, midagi ei imporditud:</translation>
    </message>
    <message>
      <source>device {device} was not provisioned: {why}</source>
      <translation>seadet {device} ei seadistatud: {why}</translation>
    </message>
    <message>
      <source>name the board's port with --board PORT: {count} board(s) found by their USB ids: {boards}</source>
      <translation>nimeta plaadi port võtmega --board PORT: USB-tunnuste järgi leitud plaate {count}: {boards}</translation>
    </message>
    <message>
      <source>the cards could not be written to {path}: {problem}</source>
      <translation>kaarte ei saanud kirjutada faili {path}: {problem}</translation>
    </message>
  </context>
  <context>
    <name>errors</name>
    <message>
      <source>process {pid} on {host}</source>
      <translation>protsess {pid} arvutis {host}</translation>
    </message>
    <message>
      <source>process {pid}</source>
      <translation>protsess {pid}</translation>
    </message>
    <message>
      <source>{game} is open at another station{where}: a game file is run by one station at a time (several stations share a game on PostgreSQL)</source>
      <translation>{game} on avatud teises jaamas{where}: mängufaili käitab korraga üks jaam (mitu jaama jagavad mängu PostgreSQL-is)</translation>
    </message>
    <message>
      <source>the firmware's files are not here (hardware/firmware of the controlroom source): set {env} to their folder</source>
      <translation>püsivara faile pole siin (controlroomi lähtekoodi hardware/firmware): sea {env} nende kaustaks</translation>
    </message>
    <message>
      <source>every device with a board is provisioned already</source>
      <translation>kõik plaadiga seadmed on juba seadistatud</translation>
    </message>
    <message>
      <source>the board read back device {other} with key {fingerprint}, not what was written: provision it again</source>
      <translation>plaat luges tagasi seadme {other} võtmega {fingerprint}, mitte selle, mis kirjutati: seadista ta uuesti</translation>
    </message>
    <message>
      <source>the radio plan will not work, so no device file was written:</source>
      <translation>raadioplaan ei toimi, nii et seadmefaili ei kirjutatud:</translation>
    </message>
    <message>
      <source>no device {device} in this game (see: controlroom devices list)</source>
      <translation>selles mängus pole seadet {device} (vaata: controlroom devices list)</translation>
    </message>
    <message>
      <source>device {device} is Meshtastic node {node}: it runs its own firmware, there is nothing to provision</source>
      <translation>seade {device} on Meshtasticu sõlm {node}: sellel on oma püsivara, pole midagi seadistada</translation>
    </message>
    <message>
      <source>the web address is HOST:PORT (e.g. 0.0.0.0:8080), not {text!r}</source>
      <translation>veebiaadress on HOST:PORT (nt 0.0.0.0:8080), mitte {text!r}</translation>
    </message>
    <message>
      <source>a port is a number from 1 to 65535, not {port}</source>
      <translation>port on arv 1 kuni 65535, mitte {port}</translation>
    </message>
    <message>
      <source>--expires takes a time of day HH:MM (e.g. 18:30), not {text!r}</source>
      <translation>--expires võtab kellaaja HH:MM (nt 18:30), mitte {text!r}</translation>
    </message>
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
      <source>--web-cert, --web-key and --web-self-signed need --web</source>
      <translation>--web-cert, --web-key ja --web-self-signed vajavad --web-i</translation>
    </message>
    <message>
      <source>no invite in force is named {name!r}</source>
      <translation>kehtivat kutset nimega {name!r} ei ole</translation>
    </message>
    <message>
      <source>the certificate cannot be read: {error}</source>
      <translation>sertifikaati ei saa lugeda: {error}</translation>
    </message>
    <message>
      <source>--replay needs the game: --db GAME</source>
      <translation>--replay vajab mängu: --db MÄNG</translation>
    </message>
    <message>
      <source>--origin {value} is not a latitude and longitude on the map</source>
      <translation>--origin {value} pole laius- ja pikkuskraad kaardil</translation>
    </message>
    <message>
      <source>no game chosen</source>
      <translation>mängu ei valitud</translation>
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
    <name>headless</name>
    <message>
      <source>warning: other users of this computer can read {files}, which hold every radio device's key; make them yours alone with: chmod 600 {files}</source>
      <translation>hoiatus: selle arvuti teised kasutajad saavad lugeda faile {files}, milles on iga raadioseadme võti; tee need ainult enda omaks käsuga: chmod 600 {files}</translation>
    </message>
  </context>
  <context>
    <name>keys</name>
    <message>
      <source>Answers to the marshals: in the language of the station that answers</source>
      <translation>Vastused marssalitele: vastava jaama keeles</translation>
    </message>
    <message>
      <source>; a running station reads this when the game is opened</source>
      <translation>; töötav jaam loeb selle mängu avamisel</translation>
    </message>
    <message>
      <source>Answers to the marshals: in {language} ({code})</source>
      <translation>Vastused marssalitele: {language} ({code})</translation>
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
      <source>a mapping is a JSON object with "columns" and "values"</source>
      <translation>vastavustabel on JSON-objekt võtmetega "columns" ja "values"</translation>
    </message>
    <message>
      <source>"columns" is not an object of header: column</source>
      <translation>"columns" ei ole objekt kujul päis: veerg</translation>
    </message>
    <message>
      <source>"values" is not an object of column: (object of word: name)</source>
      <translation>"values" ei ole objekt kujul veerg: (objekt kujul sõna: nimi)</translation>
    </message>
    <message>
      <source>unknown key {key} (known: columns, values)</source>
      <translation>tundmatu võti {key} (tuntud: columns, values)</translation>
    </message>
    <message>
      <source>columns: {header} is mapped to {column}, which is not a column (columns: {known}; "" leaves it out)</source>
      <translation>columns: päis {header} on seotud veeruga {column}, mida pole olemas (veerud: {known}; "" jätab selle välja)</translation>
    </message>
    <message>
      <source>values: {column} is not a column whose words are mapped (those are: {known})</source>
      <translation>values: {column} ei ole veerg, mille sõnu saab seostada (need on: {known})</translation>
    </message>
    <message>
      <source>values: {column} is not an object of word: name</source>
      <translation>values: {column} ei ole objekt kujul sõna: nimi</translation>
    </message>
    <message>
      <source>values: {column}: {word} is mapped to {name}, not to a name</source>
      <translation>values: {column}: sõna {word} on seotud väärtusega {name}, mitte nimega</translation>
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
      <source>{where}: which kind? (known: {known})</source>
      <translation>{where}: mis liiki? (tuntud: {known})</translation>
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
      <source>helmet {word} on 1 line</source>
      <translation>kiiver {word} 1 real</translation>
    </message>
    <message>
      <source>helmet {word} on {count} lines</source>
      <translation>kiiver {word} {count} real</translation>
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
      <source>column {column} appears twice</source>
      <translation>veerg {column} on kaks korda</translation>
    </message>
    <message>
      <source>the file is empty; its first line must name the columns: {columns}</source>
      <translation>fail on tühi; selle esimene rida peab nimetama veerud: {columns}</translation>
    </message>
    <message>
      <source>the roster</source>
      <translation>nimekiri</translation>
    </message>
    <message>
      <source>line {line}: {problem}</source>
      <translation>rida {line}: {problem}</translation>
    </message>
    <message>
      <source>cannot read {name}: it is neither a CSV file nor an Excel workbook (.xlsx) that can be read ({error}); save it from the spreadsheet as .xlsx or 'CSV UTF-8'</source>
      <translation>faili {name} ei saa lugeda: see pole ei CSV-fail ega loetav Exceli töövihik (.xlsx) ({error}); salvesta see tabelarvutusprogrammist kujul .xlsx või „CSV UTF-8”</translation>
    </message>
    <message>
      <source>cannot read {name}: it is an old Excel workbook (.xls); save it as .xlsx or 'CSV UTF-8' and import it again</source>
      <translation>faili {name} ei saa lugeda: see on vana Exceli töövihik (.xls); salvesta see kujul .xlsx või „CSV UTF-8” ja impordi uuesti</translation>
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
      <source>Say which kind with --mapping FILE.json, a file like {example} (the ruleset's helmets are named above).</source>
      <translation>Ütle kiivri liik võtmega --mapping FAIL.json, näiteks sellise failiga: {example} (reeglistiku kiivrid on nimetatud eespool).</translation>
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
      <source>the mapping {file} means nothing here (docs/roster-csv.md):</source>
      <translation>vastavustabelil {file} pole siin tähendust (docs/roster-csv.md):</translation>
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
      <source>cannot read the mapping {file}: no such file</source>
      <translation>vastavustabelit {file} ei saa lugeda: faili pole</translation>
    </message>
    <message>
      <source>cannot read the mapping {file}: {error}</source>
      <translation>vastavustabelit {file} ei saa lugeda: {error}</translation>
    </message>
    <message>
      <source>the mapping {file} is not UTF-8 text</source>
      <translation>vastavustabel {file} ei ole UTF-8 tekst</translation>
    </message>
    <message>
      <source>the mapping {file} is not JSON: {error} (line {line}, column {column})</source>
      <translation>vastavustabel {file} ei ole JSON: {error} (rida {line}, veerg {column})</translation>
    </message>
    <message>
      <source>{game} is open at a station{where}, which would not see a new roster: add the players in its window (Game, Import roster…), or close the game there and import again; nothing was imported</source>
      <translation>{game} on avatud jaamas{where}, mis uut nimekirja ei näeks: lisa mängijad selle aknas (Mäng, Impordi nimekiri…) või sulge mäng seal ja impordi uuesti; midagi ei imporditud</translation>
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
    <message>
      <source>the database server of {where} cannot be trusted or does not speak TLS as the address asks ({detail}). Give the server's certificate authority with sslrootcert=FILE in the address, check the server's name (verify-full checks it), or ask its administrator.</source>
      <translation>{where} andmebaasiserverit ei saa usaldada või see ei räägi TLS-i nii, nagu aadress nõuab ({detail}). Anna aadressis serveri sertifitseerimiskeskus sslrootcert=FAIL, kontrolli serveri nime (verify-full kontrollib seda) või küsi selle haldajalt.</translation>
    </message>
  </context>
  <context>
    <name>tak</name>
    <message>
      <source>no answer in {s:g} s</source>
      <translation>{s:g} s jooksul vastust ei tulnud</translation>
    </message>
    <message>
      <source>the server closed the connection</source>
      <translation>server sulges ühenduse</translation>
    </message>
    <message>
      <source>{why}; next attempt in {s:g} s</source>
      <translation>{why}; järgmine katse {s:g} s pärast</translation>
    </message>
    <message>
      <source>TAK server {url} lost ({why}): its objects are sent again when it is back</source>
      <translation>TAK-server {url} kadus ({why}): objektid saadetakse uuesti, kui see tagasi on</translation>
    </message>
    <message>
      <source>marshal's handset</source>
      <translation>marssali käsiseade</translation>
    </message>
    <message>
      <source>{side}: {up} up, {down} down, {dead} dead</source>
      <translation>{side}: {up} püsti, {down} maas, {dead} surnud</translation>
    </message>
    <message>
      <source>siege engine: {status}</source>
      <translation>piiramismasin: {status}</translation>
    </message>
    <message>
      <source>STOPP {id} lifted</source>
      <translation>STOPP {id} lõpetatud</translation>
    </message>
    <message>
      <source>Valhalla: {here} here of {dead} dead</source>
      <translation>Valhalla: {here} kohal {dead} surnust</translation>
    </message>
    <message>
      <source>STOPP {id}: {reason}</source>
      <translation>STOPP {id}: {reason}</translation>
    </message>
    <message>
      <source>, battery {battery} %</source>
      <translation>, aku {battery} %</translation>
    </message>
    <message>
      <source>{side} {here} of {dead}</source>
      <translation>{side} {here}/{dead}</translation>
    </message>
    <message>
      <source>groups {groups}</source>
      <translation>grupid {groups}</translation>
    </message>
    <message>
      <source>no map is kept with the game: no GeoTIFF, and the battle area is not drawn</source>
      <translation>mänguga pole kaarti hoitud: GeoTIFF-i pole ja lahinguala ei joonistata</translation>
    </message>
    <message>
      <source>the map has no named places (field.places.geojson beside it)</source>
      <translation>kaardil pole nimega kohti (field.places.geojson selle kõrval)</translation>
    </message>
    <message>
      <source>there is nothing to put in a TAK data package: keep the field's map with the game (controlroom --db GAME --map FILE), name its places, or set the TAK server (controlroom tak --server URL)</source>
      <translation>TAK-andmepaketti pole midagi panna: hoia välja kaarti mänguga (controlroom --db MÄNG --map FAIL), nimeta selle kohad või määra TAK-server (controlroom tak --server URL)</translation>
    </message>
    <message>
      <source>no place named {name} on the map: no {name} marker</source>
      <translation>kaardil pole kohta nimega {name}: {name} märki pole</translation>
    </message>
    <message>
      <source>the map {name} is not in the package as a GeoTIFF: {why}</source>
      <translation>kaart {name} pole paketis GeoTIFF-ina: {why}</translation>
    </message>
  </context>
  <context>
    <name>textreport</name>
    <message>
      <source>D/K/B/V 123 = down/dead/bound/Valhalla; STOPP [reason] [group]; LIFT; H 12 = headcount</source>
      <translation>D/K/B/V 123 = maas/surnud/seotud/Valhalla; STOPP [põhjus] [grupp]; LÕPP; H 12 = pealugu</translation>
    </message>
    <message>
      <source>down</source>
      <translation>maas</translation>
    </message>
    <message>
      <source>dead</source>
      <translation>surnud</translation>
    </message>
    <message>
      <source>bound</source>
      <translation>seotud</translation>
    </message>
    <message>
      <source>in Valhalla</source>
      <translation>Valhallas</translation>
    </message>
    <message>
      <source>danger</source>
      <translation>oht</translation>
    </message>
    <message>
      <source>injury</source>
      <translation>vigastus</translation>
    </message>
    <message>
      <source>unpleasant</source>
      <translation>ebameeldiv</translation>
    </message>
    <message>
      <source>group '{group}' unknown</source>
      <translation>grupp '{group}' tundmatu</translation>
    </message>
    <message>
      <source>OK: {group} {up} up {down} down {dead} dead {at}</source>
      <translation>OK: {group} {up} püsti {down} maas {dead} surnud {at}</translation>
    </message>
    <message>
      <source>badge must be a number above 0, not '{token}'</source>
      <translation>märk peab olema number üle 0, mitte '{token}'</translation>
    </message>
    <message>
      <source>a text message, please</source>
      <translation>palun tekstisõnum</translation>
    </message>
    <message>
      <source>empty message. {help}</source>
      <translation>tühi sõnum. {help}</translation>
    </message>
    <message>
      <source>a headcount is a number: H 12 (up), H 12 3 1 (up, down, dead)</source>
      <translation>pealugu on number: H 12 (püsti), H 12 3 1 (püsti, maas, surnud)</translation>
    </message>
    <message>
      <source>group '{group}' could be {groups}</source>
      <translation>grupp '{group}' võib olla {groups}</translation>
    </message>
    <message>
      <source>OK: {badge} {said} by {by} {at}</source>
      <translation>OK: {badge} {said}, sidus {by} {at}</translation>
    </message>
    <message>
      <source>OK: STOPP {stopp} ({reason}) for {group} {at}. LIFT to end it</source>
      <translation>OK: STOPP {stopp} ({reason}) grupile {group} {at}. Lõpetamiseks LÕPP</translation>
    </message>
    <message>
      <source>OK: STOPP {stopp} lifted {at}</source>
      <translation>OK: STOPP {stopp} lõpetatud {at}</translation>
    </message>
    <message>
      <source>whose headcount? H 12 GROUP</source>
      <translation>kelle pealugu? H 12 GRUPP</translation>
    </message>
    <message>
      <source>the binder's badge must be a number, not '{token}'</source>
      <translation>siduja märk peab olema number, mitte '{token}'</translation>
    </message>
    <message>
      <source>badge must be a number, not '{token}'</source>
      <translation>märk peab olema number, mitte '{token}'</translation>
    </message>
    <message>
      <source>unknown command '{word}'. {help}</source>
      <translation>tundmatu käsk '{word}'. {help}</translation>
    </message>
    <message>
      <source>a badge number is missing: {word} 123</source>
      <translation>märgi number puudub: {word} 123</translation>
    </message>
    <message>
      <source>one badge per message; '{extra}' is too much</source>
      <translation>üks märk sõnumi kohta; '{extra}' on liiast</translation>
    </message>
    <message>
      <source>LIFT takes one STOPP id at most, e.g. LIFT 12-ab01</source>
      <translation>LÕPP võtab kõige rohkem ühe STOPP-i tunnuse, nt LÕPP 12-ab01</translation>
    </message>
    <message>
      <source>OK: {badge} {said} {at}</source>
      <translation>OK: {badge} {said} {at}</translation>
    </message>
    <message>
      <source>OK: STOPP {stopp} ({reason}) {at}. LIFT to end it</source>
      <translation>OK: STOPP {stopp} ({reason}) {at}. Lõpetamiseks LÕPP</translation>
    </message>
    <message>
      <source>badge {badge} unknown</source>
      <translation>märk {badge} tundmatu</translation>
    </message>
    <message>
      <source>no STOPP {stopp} is on</source>
      <translation>STOPP-i {stopp} ei ole käimas</translation>
    </message>
    <message>
      <source>no STOPP of yours is on: LIFT &lt;id&gt;</source>
      <translation>ühtki sinu STOPP-i ei ole käimas: LÕPP &lt;tunnus&gt;</translation>
    </message>
    <message>
      <source>marshal</source>
      <translation>marssal</translation>
    </message>
    <message>
      <source>tracker</source>
      <translation>jälgija</translation>
    </message>
    <message>
      <source>gateway</source>
      <translation>lüüs</translation>
    </message>
    <message>
      <source>node {node} is not registered</source>
      <translation>sõlm {node} ei ole registreeritud</translation>
    </message>
    <message>
      <source>this game takes reports only as direct messages (PKI): send to the station's node</source>
      <translation>see mäng võtab teateid vastu ainult otsesõnumitena (PKI): saada jaama sõlmele</translation>
    </message>
    <message>
      <source>device {device} is a {role}: it sends positions and headcounts</source>
      <translation>seade {device} on {role}: see saadab asukohti ja pealugusid</translation>
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
      <source>{who}: {checks}: inadequate material, at most {most} armour points</source>
      <translation>{who}: {checks}: ebapiisav materjal, kõige rohkem {most} turvisepunkti</translation>
    </message>
    <message>
      <source>an unconscious or dead character cannot interact with others in any way</source>
      <translation>teadvuseta või surnud tegelane ei saa teistega mingil moel suhelda</translation>
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
      <source>{who} already cares for {limit}: a healer may care for at most {limit} at once</source>
      <translation>{who} hoolitseb juba {limit} eest: ravitseja võib korraga hoolitseda kõige rohkem {limit} eest</translation>
    </message>
    <message>
      <source>healer {who} has used all {allowed} healing touches of this scenario</source>
      <translation>ravitseja {who} on selle stsenaariumi kõik {allowed} ravipuudutust ära kasutanud</translation>
    </message>
    <message>
      <source>{role} {who}</source>
      <translation>{role} {who}</translation>
    </message>
    <message>
      <source>{what} reported while STOPP {stopp!r} holds {who}: the game stands still for everyone a STOPP covers</source>
      <translation>{what} teatatud ajal, mil STOPP {stopp!r} hoiab kinni: {who}; mäng seisab kõigi jaoks, keda STOPP hõlmab</translation>
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
    <message>
      <source>{name} (badge {badge})</source>
      <translation>{name} (märk {badge})</translation>
    </message>
  </context>
  <context>
    <name>web</name>
    <message>
      <source>the station is stopping: send it again in a moment</source>
      <translation>jaam peatub: saada hetke pärast uuesti</translation>
    </message>
    <message>
      <source>not stored: {why}</source>
      <translation>ei salvestatud: {why}</translation>
    </message>
    <message>
      <source>stored before: this form was sent already</source>
      <translation>salvestatud varem: see vorm oli juba saadetud</translation>
    </message>
    <message>
      <source>stored</source>
      <translation>salvestatud</translation>
    </message>
    <message>
      <source>stored, but it does not count: {why}</source>
      <translation>salvestatud, kuid see ei loe: {why}</translation>
    </message>
    <message>
      <source>Control room</source>
      <translation>Juhtimiskeskus</translation>
    </message>
    <message>
      <source>Viewer</source>
      <translation>Vaatleja</translation>
    </message>
    <message>
      <source>Safety</source>
      <translation>Ohutus</translation>
    </message>
    <message>
      <source>Valhalla gate</source>
      <translation>Valhalla värav</translation>
    </message>
    <message>
      <source>Marshal</source>
      <translation>Marssal</translation>
    </message>
    <message>
      <source>live</source>
      <translation>otse</translation>
    </message>
    <message>
      <source>stale since {time}: reconnecting…</source>
      <translation>vana seisuga {time}: ühendan uuesti…</translation>
    </message>
    <message>
      <source>This link is not valid (any more). Ask the game master for a new invite.</source>
      <translation>See link ei kehti (enam). Küsi mängujuhilt uus kutse.</translation>
    </message>
    <message>
      <source>Opening the control room…</source>
      <translation>Avan juhtimiskeskust…</translation>
    </message>
    <message>
      <source>Sides</source>
      <translation>Pooled</translation>
    </message>
    <message>
      <source>Side</source>
      <translation>Pool</translation>
    </message>
    <message>
      <source>active</source>
      <translation>aktiivsed</translation>
    </message>
    <message>
      <source>down</source>
      <translation>maas</translation>
    </message>
    <message>
      <source>dead</source>
      <translation>surnud</translation>
    </message>
    <message>
      <source>in Valhalla</source>
      <translation>Valhallas</translation>
    </message>
    <message>
      <source>STOPPs</source>
      <translation>STOPP-id</translation>
    </message>
    <message>
      <source>No STOPP in force</source>
      <translation>Ühtegi STOPP-i pole</translation>
    </message>
    <message>
      <source>Dying</source>
      <translation>Suremas</translation>
    </message>
    <message>
      <source>Nobody is dying</source>
      <translation>Keegi ei ole suremas</translation>
    </message>
    <message>
      <source>held by a STOPP</source>
      <translation>STOPP peatas</translation>
    </message>
    <message>
      <source>Map</source>
      <translation>Kaart</translation>
    </message>
    <message>
      <source>The game keeps no map: positions only</source>
      <translation>Mängul pole kaarti: ainult asukohad</translation>
    </message>
    <message>
      <source>Safety alarms</source>
      <translation>Ohutushäired</translation>
    </message>
    <message>
      <source>No safety alarm waiting</source>
      <translation>Ükski ohutushäire ei oota</translation>
    </message>
    <message>
      <source>Acknowledge</source>
      <translation>Kinnita</translation>
    </message>
    <message>
      <source>caller</source>
      <translation>hüüdja</translation>
    </message>
    <message>
      <source>place</source>
      <translation>koht</translation>
    </message>
    <message>
      <source>square</source>
      <translation>ruut</translation>
    </message>
    <message>
      <source>Dead and due at the gate</source>
      <translation>Surnud, oodatud väravasse</translation>
    </message>
    <message>
      <source>Nobody is due</source>
      <translation>Kedagi ei oodata</translation>
    </message>
    <message>
      <source>Check in</source>
      <translation>Registreeri</translation>
    </message>
    <message>
      <source>Badge</source>
      <translation>Märk</translation>
    </message>
    <message>
      <source>By (badge)</source>
      <translation>Kes (märk)</translation>
    </message>
    <message>
      <source>What happened</source>
      <translation>Mis juhtus</translation>
    </message>
    <message>
      <source>Send</source>
      <translation>Saada</translation>
    </message>
    <message>
      <source>Send again</source>
      <translation>Saada uuesti</translation>
    </message>
    <message>
      <source>Report a casualty</source>
      <translation>Teata kannatanust</translation>
    </message>
    <message>
      <source>Call STOPP</source>
      <translation>Hüüa STOPP</translation>
    </message>
    <message>
      <source>Lift STOPP</source>
      <translation>Lõpeta STOPP</translation>
    </message>
    <message>
      <source>Reason</source>
      <translation>Põhjus</translation>
    </message>
    <message>
      <source>danger</source>
      <translation>oht</translation>
    </message>
    <message>
      <source>injury</source>
      <translation>vigastus</translation>
    </message>
    <message>
      <source>unpleasant</source>
      <translation>ebameeldiv</translation>
    </message>
    <message>
      <source>sending…</source>
      <translation>saadan…</translation>
    </message>
    <message>
      <source>Stored</source>
      <translation>Salvestatud</translation>
    </message>
    <message>
      <source>Stored before (sent twice): kept once</source>
      <translation>Salvestatud varem (saadetud kaks korda): hoitakse üks kord</translation>
    </message>
    <message>
      <source>Stored, but it does not count</source>
      <translation>Salvestatud, kuid ei loe</translation>
    </message>
    <message>
      <source>Not stored</source>
      <translation>Ei salvestatud</translation>
    </message>
    <message>
      <source>No answer yet: send it again (it is stored once)</source>
      <translation>Vastust veel pole: saada uuesti (see salvestatakse üks kord)</translation>
    </message>
    <message>
      <source>Night</source>
      <translation>Öö</translation>
    </message>
    <message>
      <source>knocked out</source>
      <translation>uimastatud</translation>
    </message>
    <message>
      <source>big stone on shield</source>
      <translation>suur kivi kilbil</translation>
    </message>
    <message>
      <source>bound</source>
      <translation>seotud</translation>
    </message>
    <message>
      <source>cared for</source>
      <translation>hooldatud</translation>
    </message>
    <message>
      <source>strenuous</source>
      <translation>pingutus</translation>
    </message>
    <message>
      <source>healer's touch</source>
      <translation>ravitseja puudutus</translation>
    </message>
    <message>
      <source>permanent kill</source>
      <translation>lõplik tapmine</translation>
    </message>
    <message>
      <source>respawned</source>
      <translation>taastekkinud</translation>
    </message>
    <message>
      <source>checked in at Valhalla</source>
      <translation>registreeritud Valhallas</translation>
    </message>
    <message>
      <source>and {n} more</source>
      <translation>ja veel {n}</translation>
    </message>
    <message>
      <source>the game is not open yet: send it again</source>
      <translation>mäng pole veel avatud: saada uuesti</translation>
    </message>
    <message>
      <source>expired</source>
      <translation>aegunud</translation>
    </message>
    <message>
      <source>revoked {time}</source>
      <translation>tühistatud {time}</translation>
    </message>
    <message>
      <source>in force</source>
      <translation>kehtib</translation>
    </message>
    <message>
      <source>{role} invite for {name}; its QR code: {qr}</source>
      <translation>{role}-kutse inimesele {name}; selle QR-kood: {qr}</translation>
    </message>
    <message>
      <source>revoked the invite of {name}</source>
      <translation>tühistasin kutse: {name}</translation>
    </message>
    <message>
      <source>it stops working at {time}</source>
      <translation>see lakkab töötamast {time}</translation>
    </message>
    <message>
      <source>the station's certificate (SHA-256): {fp}</source>
      <translation>jaama sertifikaat (SHA-256): {fp}</translation>
    </message>
    <message>
      <source>until {time}</source>
      <translation>kuni {time}</translation>
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
