<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="et_EE">
<context>
    <name>AlarmBanner</name>
    <message>
        <source>Show every alarm waiting, and acknowledge them there</source>
        <translation>Näita kõiki ootel häireid ja kinnita need seal</translation>
    </message>
    <message numerus="yes">
        <source>+%n more</source>
        <translation>
            <numerusform>+%n veel</numerusform>
            <numerusform>+%n veel</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AlarmListDialog</name>
    <message>
        <source>All alarms</source>
        <translation>Kõik häired</translation>
    </message>
    <message numerus="yes">
        <source>%n alarm(s) not acknowledged, the most urgent first.</source>
        <translation>
            <numerusform>%n kinnitamata häire.</numerusform>
            <numerusform>%n kinnitamata häiret, kõige pakilisem eespool.</numerusform>
        </translation>
    </message>
    <message>
        <source>No alarm is waiting.</source>
        <translation>Ükski häire ei oota.</translation>
    </message>
</context>
<context>
    <name>AlarmRow</name>
    <message>
        <source>Acknowledge</source>
        <extracomment>Background and text colour of each class (every pair reads at 4.5:1 or better). A safety row flashing, its dark phase.</extracomment>
        <translation>Kinnita</translation>
    </message>
    <message>
        <source>{kind} at {time}: {message}</source>
        <translation>{kind} kell {time}: {message}</translation>
    </message>
    <message>
        <source>{text} (×{count})</source>
        <translation>{text} (×{count})</translation>
    </message>
</context>
<context>
    <name>ArmourForm</name>
    <message>
        <source> mm wire</source>
        <translation> mm traat</translation>
    </message>
    <message>
        <source> mm</source>
        <translation> mm</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>mõõtmata</translation>
    </message>
    <message>
        <source>Appendix 2: the thickness of the material (of the wire, for chain)</source>
        <translation>2. lisa: materjali paksus (rõngassärgi puhul traadi oma)</translation>
    </message>
    <message>
        <source>no helmet</source>
        <translation>kiivrita</translation>
    </message>
    <message>
        <source>{0} ({1} AP)</source>
        <translation>{0} ({1} TP)</translation>
    </message>
    <message>
        <source>Helmet</source>
        <translation>Kiiver</translation>
    </message>
    <message>
        <source>Armour worn</source>
        <translation>Kantud turvis</translation>
    </message>
    <message>
        <source>Inadequate material or no real protection (at most {0} AP)</source>
        <translation>Ebapiisav materjal või tegelik kaitse puudub (kõige rohkem {0} TP)</translation>
    </message>
    <message>
        <source>from the costume</source>
        <translation>kostüümist</translation>
    </message>
    <message>
        <source>Game master&apos;s points</source>
        <translation>Mängujuhi punktid</translation>
    </message>
    <message>
        <source>Armour points: {total} (body {body} + helmet {helmet})</source>
        <translation>Turvisepunktid: {total} (keha {body} + kiiver {helmet})</translation>
    </message>
    <message>
        <source>Inadequate material (Appendix 2): at most {0} armour points.</source>
        <translation>Ebapiisav materjal (2. lisa): kõige rohkem {0} turvisepunkti.</translation>
    </message>
    <message>
        <source>The material meets Appendix 2.</source>
        <translation>Materjal vastab 2. lisale.</translation>
    </message>
    <message>
        <source>Measure the material of what is worn (Appendix 2):</source>
        <translation>Mõõda kantava materjali paksus (2. lisa):</translation>
    </message>
</context>
<context>
    <name>ClockBar</name>
    <message>
        <source>Game {game}   Wall {wall}</source>
        <translation>Mänguaeg {game}   Kell {wall}</translation>
    </message>
    <message>
        <source>{scenario}: running {running}</source>
        <translation>{scenario}: käib {running}</translation>
    </message>
    <message>
        <source>{scenario}: ended after {running}</source>
        <translation>{scenario}: lõppes {running} järel</translation>
    </message>
</context>
<context>
    <name>CorrectionDialog</name>
    <message>
        <source>Correct this report</source>
        <translation>Paranda see teade</translation>
    </message>
    <message>
        <source>{time}  {what}  {who}  {details}  (from {source})</source>
        <translation>{time}  {what}  {who}  {details}  (saatja {source})</translation>
    </message>
    <message>
        <source>why it is wrong, e.g. the marshal gave the wrong badge</source>
        <translation>miks see on vale, nt marssal andis vale märgi</translation>
    </message>
    <message>
        <source>Replace it with a corrected report</source>
        <translation>Asenda parandatud teatega</translation>
    </message>
    <message>
        <source>badge number</source>
        <translation>märgi number</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Põhjus</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Mis juhtus</translation>
    </message>
    <message>
        <source>Badge</source>
        <translation>Märk</translation>
    </message>
    <message>
        <source>Take it back</source>
        <translation>Võta tagasi</translation>
    </message>
    <message>
        <source>Say why the report is wrong: the reason goes into the record and the report.</source>
        <translation>Ütle, miks teade on vale: põhjus läheb logisse ja aruandesse.</translation>
    </message>
    <message>
        <source>“{0}” is not a badge number.</source>
        <translation>„{0}” ei ole märgi number.</translation>
    </message>
    <message>
        <source>The corrected report is not complete: {0}</source>
        <translation>Parandatud teade pole täielik: {0}</translation>
    </message>
</context>
<context>
    <name>CountModel</name>
    <message>
        <source>Total</source>
        <translation>Kokku</translation>
    </message>
    <message>
        <source>Security alarm: frames with a wrong authentication tag (forged?) were received.</source>
        <translation>Turvahäire: saabus vale autentimismärgendiga kaadreid (võltsitud?).</translation>
    </message>
</context>
<context>
    <name>CrsDialog</name>
    <message>
        <source>Coordinate system of {name}</source>
        <extracomment>The file dialog&apos;s filter for maps.</extracomment>
        <translation>{name}: koordinaatsüsteem</translation>
    </message>
    <message>
        <source>{name} is placed by {placed}, but nothing says which coordinate system its numbers are in (no .prj or .aux.xml beside it). Choose the one the map was made in; a wrong one puts everything in the wrong place.</source>
        <translation>{name} on paigutatud faili {placed} järgi, kuid miski ei ütle, millises koordinaatsüsteemis selle arvud on (kõrval pole .prj- ega .aux.xml-faili). Vali see, milles kaart tehti; vale süsteem paneb kõik valesse kohta.</translation>
    </message>
    <message>
        <source>Its numbers are small, like metres around a point, as earlier versions of controlroom wrote them. Cancel, and place the image again by clicking three points.</source>
        <translation>Selle arvud on väikesed, nagu meetrid ümber ühe punkti, nii nagu controlroomi varasemad versioonid need kirjutasid. Loobu ja paiguta pilt uuesti, klõpsates kolmel punktil.</translation>
    </message>
    <message>
        <source>centre at {lat:.4f}, {lon:.4f}</source>
        <translation>keskpunkt {lat:.4f}, {lon:.4f}</translation>
    </message>
    <message>
        <source>, {km:.1f} km from the field&apos;s positions</source>
        <translation>, {km:.1f} km väljaku asukohtadest</translation>
    </message>
    <message>
        <source>or type an EPSG code (3301, EPSG:32635) or paste WKT</source>
        <translation>või sisesta EPSG-kood (3301, EPSG:32635) või kleebi WKT</translation>
    </message>
    <message>
        <source>Its numbers fit:</source>
        <translation>Selle arvudega sobivad:</translation>
    </message>
    <message>
        <source>that</source>
        <translation>see</translation>
    </message>
    <message>
        <source>{crs}: the map&apos;s centre would be at {lat:.5f}, {lon:.5f}</source>
        <translation>{crs}: kaardi keskpunkt oleks {lat:.5f}, {lon:.5f}</translation>
    </message>
    <message>
        <source>{crs} cannot place this map</source>
        <translation>{crs} ei suuda seda kaarti paigutada</translation>
    </message>
    <message>
        <source>chosen by the game master</source>
        <translation>mängujuhi valitud</translation>
    </message>
</context>
<context>
    <name>DeadlineModel</name>
    <message>
        <source>Held: a STOPP covers this character; the time stands still until it is lifted.</source>
        <extracomment>A delta changing more characters than this resets the model (one reset is cheaper than many inserts).</extracomment>
        <translation>Peatatud: STOPP hõlmab seda tegelast; aeg seisab, kuni see lõpetatakse.</translation>
    </message>
    <message>
        <source>held {0}</source>
        <translation>peatatud {0}</translation>
    </message>
</context>
<context>
    <name>DeadlinePanel</name>
    <message>
        <source>Dying and waking</source>
        <extracomment>Rows inserted or removed: whether group and side fit is decided again this long after (once a burst). The columns always shown whole (countdown, what, who); group and side only when there is room. The panel scrolls its own rows: the window puts it in a dock as it is, with the room it needs.</extracomment>
        <translation>Suremine ja ärkamine</translation>
    </message>
    <message>
        <source>{0} dying ({1} within 2 minutes), {2} held by a STOPP</source>
        <translation>{0} suremas ({1} 2 minuti jooksul), {2} STOPPi tõttu peatatud</translation>
    </message>
</context>
<context>
    <name>DeskSwitch</name>
    <message>
        <source>&amp;Control room (map)</source>
        <translation>&amp;Juhtimiskeskus (kaart)</translation>
    </message>
    <message>
        <source>&amp;Valhalla desk</source>
        <translation>&amp;Valhalla laud</translation>
    </message>
    <message>
        <source>&amp;Weapon-check desk</source>
        <translation>&amp;Relvakontrolli laud</translation>
    </message>
    <message>
        <source>De&amp;vices desk</source>
        <translation>&amp;Seadmete laud</translation>
    </message>
    <message>
        <source>&amp;Desk</source>
        <translation>La&amp;ud</translation>
    </message>
</context>
<context>
    <name>DeviceModel</name>
    <message>
        <source>at {0}</source>
        <translation>kell {0}</translation>
    </message>
</context>
<context>
    <name>DevicesDesk</name>
    <message>
        <source>Devices</source>
        <translation>Seadmed</translation>
    </message>
    <message>
        <source>Show only:</source>
        <translation>Näita ainult:</translation>
    </message>
    <message>
        <source>not provisioned</source>
        <translation>seadistamata</translation>
    </message>
    <message>
        <source>not heard for</source>
        <translation>kuulmata üle</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>battery under 20 %</source>
        <translation>aku alla 20 %</translation>
    </message>
    <message>
        <source>Read the devices again</source>
        <translation>Loe seadmed uuesti</translation>
    </message>
    <message>
        <source>After a device list was imported: the station knows its devices from now on</source>
        <translation>Pärast seadmete nimekirja importimist: jaam tunneb oma seadmeid nüüdsest</translation>
    </message>
    <message>
        <source>Board on USB:</source>
        <translation>Plaat USB-s:</translation>
    </message>
    <message>
        <source>plug a board in, or type its port</source>
        <translation>ühenda plaat või kirjuta selle port</translation>
    </message>
    <message>
        <source>Provision the selected device</source>
        <translation>Seadista valitud seade</translation>
    </message>
    <message>
        <source>Provision the next one</source>
        <translation>Seadista järgmine</translation>
    </message>
    <message>
        <source>Marshal cards (PDF)…</source>
        <translation>Marssalikaardid (PDF)…</translation>
    </message>
    <message>
        <source>Cards in:</source>
        <translation>Kaardid keeles:</translation>
    </message>
    <message>
        <source>{0} devices: {1} provisioned, {2} heard, {3} with a low battery</source>
        <translation>Seadmeid {0}: seadistatud {1}, kuuldud {2}, tühjeneva akuga {3}</translation>
    </message>
    <message>
        <source>Plug a board in by USB (or type its port) first.</source>
        <translation>Ühenda enne plaat USB-ga (või kirjuta selle port).</translation>
    </message>
    <message>
        <source>the next device</source>
        <translation>järgmist seadet</translation>
    </message>
    <message>
        <source>device {0}</source>
        <translation>seadet {0}</translation>
    </message>
    <message>
        <source>Provisioning {0} on {1}…</source>
        <translation>Seadistan {0} pordis {1}…</translation>
    </message>
    <message>
        <source>Provisioning {0} on {1}: {2} %</source>
        <translation>Seadistan {0} pordis {1}: {2} %</translation>
    </message>
    <message>
        <source>Device {0} provisioned: firmware {1}, key {2}, as the board read them back. It restarts; its row says heard once its first frame arrives.</source>
        <translation>Seade {0} seadistatud: püsivara {1}, võti {2}, nagu plaat need tagasi luges. See taaskäivitub; tema real on „kuuldud”, kui saabub tema esimene kaader.</translation>
    </message>
    <message>
        <source>Device {0} failed: {1}</source>
        <translation>Seade {0} ebaõnnestus: {1}</translation>
    </message>
    <message>
        <source>Marshal cards</source>
        <translation>Marssalikaardid</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Making the marshal cards…</source>
        <translation>Teen marssalikaarte…</translation>
    </message>
    <message>
        <source>No marshal handsets in this game: no cards to print.</source>
        <translation>Selles mängus pole marssalite käsiseadmeid: pole kaarte, mida printida.</translation>
    </message>
    <message>
        <source>The cards could not be written to {0}: {1}</source>
        <translation>Kaarte ei saanud kirjutada faili {0}: {1}</translation>
    </message>
    <message>
        <source>{0} marshal cards on {1} pages: {2}</source>
        <translation>Marssalikaarte {0}, lehekülgi {1}: {2}</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export report</source>
        <translation>Ekspordi aruanne</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Vali…</translation>
    </message>
    <message>
        <source>The whole game</source>
        <translation>Kogu mäng</translation>
    </message>
    <message>
        <source>Scenario: {name}</source>
        <translation>Stsenaarium: {name}</translation>
    </message>
    <message>
        <source>PDF for the organisers (A4)</source>
        <translation>PDF korraldajatele (A4)</translation>
    </message>
    <message>
        <source>CSV files for spreadsheets (casualties, players, STOPPs)</source>
        <translation>CSV-failid tabelarvutusele (kaotused, mängijad, STOPPid)</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Kaust</translation>
    </message>
    <message>
        <source>Report on</source>
        <translation>Aruanne</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Failid</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Ekspordi</translation>
    </message>
    <message>
        <source>Folder for the report</source>
        <translation>Aruande kaust</translation>
    </message>
    <message>
        <source>Choose PDF, CSV or both.</source>
        <translation>Vali PDF, CSV või mõlemad.</translation>
    </message>
    <message>
        <source>Reading the game…</source>
        <translation>Mängu lugemine…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Loobu</translation>
    </message>
    <message>
        <source>Writing the PDF: page {page} of {pages}…</source>
        <translation>PDF-i kirjutamine: lehekülg {page}/{pages}…</translation>
    </message>
    <message>
        <source>Laying out the PDF…</source>
        <translation>PDF-i küljendamine…</translation>
    </message>
    <message>
        <source>The report could not be written: {error}</source>
        <translation>Aruannet ei saanud kirjutada: {error}</translation>
    </message>
    <message>
        <source>The report is written:</source>
        <translation>Aruanne on kirjutatud:</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>Ava kaust</translation>
    </message>
</context>
<context>
    <name>FindDialog</name>
    <message>
        <source>Find a player or a group</source>
        <translation>Otsi mängijat või gruppi</translation>
    </message>
    <message>
        <source>badge, name or group</source>
        <translation>märk, nimi või grupp</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>Otsi</translation>
    </message>
    <message>
        <source>No badge, player or group “{0}” in this game.</source>
        <translation>Selles mängus pole märki, mängijat ega gruppi „{0}”.</translation>
    </message>
    <message>
        <source>{0} match: {1}. Pick one of the suggestions.</source>
        <translation>{0} vastet: {1}. Vali üks soovitustest.</translation>
    </message>
</context>
<context>
    <name>GameControls</name>
    <message>
        <source>Scenario</source>
        <translation>Stsenaarium</translation>
    </message>
    <message>
        <source>name of the scenario</source>
        <translation>stsenaariumi nimi</translation>
    </message>
    <message>
        <source>Respawn the dead</source>
        <translation>Surnute taassünd</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>rules&apos; default</source>
        <translation>reeglite vaikimisi</translation>
    </message>
    <message>
        <source>Start scenario</source>
        <translation>Alusta stsenaariumi</translation>
    </message>
    <message>
        <source>End scenario</source>
        <translation>Lõpeta stsenaarium</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nimi</translation>
    </message>
    <message>
        <source>STOPP</source>
        <translation>STOPP</translation>
    </message>
    <message>
        <source>STOPP for everyone</source>
        <translation>STOPP kõigile</translation>
    </message>
    <message>
        <source>Ruled trivial</source>
        <translation>Tühiseks hinnatud</translation>
    </message>
    <message>
        <source>A STOPP ruled trivial: the caller falls unconscious.</source>
        <translation>Tühiseks hinnatud STOPP: väljakutsuja jääb teadvusetuks.</translation>
    </message>
    <message>
        <source>(the caller falls unconscious)</source>
        <translation>(väljakutsuja jääb teadvusetuks)</translation>
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
        <source>Active STOPP</source>
        <translation>Kehtiv STOPP</translation>
    </message>
    <message>
        <source>Report by voice radio</source>
        <translation>Häälraadio teade</translation>
    </message>
    <message>
        <source>badge number</source>
        <translation>märgi number</translation>
    </message>
    <message>
        <source>Valid strikes</source>
        <translation>Kehtivad löögid</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>teatamata</translation>
    </message>
    <message>
        <source>Seconds counted aloud</source>
        <translation>Valjult loetud sekundid</translation>
    </message>
    <message>
        <source>Submit</source>
        <translation>Saada</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>Mis juhtus</translation>
    </message>
    <message>
        <source>Badge</source>
        <translation>Märk</translation>
    </message>
    <message>
        <source>The carer stays within 1 m of the wounded, wears no weapons and does nothing else; the wounded lies still, tended and bound. The carer must be conscious.</source>
        <translation>Hooldaja püsib haavatust kuni 1 m kaugusel, ei kanna relvi ega tee midagi muud; haavatu lamab paigal, hooldatud ja seotud. Hooldaja peab olema teadvusel.</translation>
    </message>
    <message numerus="yes">
        <source>A healer cares for at most %n at a time.</source>
        <translation>
            <numerusform>Ravitseja hoolitseb korraga kõige rohkem %n haavatu eest.</numerusform>
            <numerusform>Ravitseja hoolitseb korraga kõige rohkem %n haavatu eest.</numerusform>
        </translation>
    </message>
    <message>
        <source>A bandage (a white strip of cloth at least 5 cm wide and 50 cm long) on the wound; whoever binds must be conscious.</source>
        <translation>Side (valge riideriba, vähemalt 5 cm lai ja 50 cm pikk) haaval; siduja peab olema teadvusel.</translation>
    </message>
    <message>
        <source>The healer&apos;s hands are free and pressed on the target; the healer must be conscious.</source>
        <translation>Ravitseja käed on vabad ja surutud sihtmärgile; ravitseja peab olema teadvusel.</translation>
    </message>
    <message>
        <source>Hacking the body for at least {0} s, counted aloud; the killer must be conscious. A shorter count is recorded as a rule warning.</source>
        <translation>Keha raiumine vähemalt {0} s, valjult lugedes; tapja peab olema teadvusel. Lühem loendus salvestatakse reeglihoiatusena.</translation>
    </message>
    <message>
        <source>{0} (called by badge {1})</source>
        <translation>{0} (kutsus märk {1})</translation>
    </message>
    <message>
        <source>Give the scenario a name first.</source>
        <translation>Anna stsenaariumile kõigepealt nimi.</translation>
    </message>
    <message>
        <source>Not started: {0}</source>
        <translation>Ei alustatud: {0}</translation>
    </message>
    <message>
        <source>Starting “{0}”.</source>
        <translation>Alustan: „{0}”.</translation>
    </message>
    <message>
        <source>End the scenario? Every running timer (dying, waking, respawn) stops.</source>
        <translation>Kas lõpetada stsenaarium? Kõik käivad taimerid (suremine, ärkamine, taassünd) peatuvad.</translation>
    </message>
    <message>
        <source>Ending the scenario.</source>
        <translation>Lõpetan stsenaariumi.</translation>
    </message>
    <message>
        <source>Not sent: {0}</source>
        <translation>Ei saadetud: {0}</translation>
    </message>
    <message>
        <source>Sent: {0}, badge {1}.</source>
        <translation>Saadetud: {0}, märk {1}.</translation>
    </message>
    <message>
        <source>Counted {0} s, less than the rules&apos; {1} s: the kill is recorded as a rule warning, not a death.</source>
        <translation>Loeti {0} s, vähem kui reeglite {1} s: tapmine salvestatakse reeglihoiatusena, mitte surmana.</translation>
    </message>
    <message>
        <source>the badge number of the player</source>
        <translation>mängija märgi number</translation>
    </message>
    <message>
        <source>Enter {0}.</source>
        <translation>Sisesta {0}.</translation>
    </message>
    <message>
        <source>“{0}” is not a badge number: enter {1} as a whole number, like 42.</source>
        <translation>„{0}” ei ole märgi number: sisesta {1} täisarvuna, näiteks 42.</translation>
    </message>
</context>
<context>
    <name>GeorefDialog</name>
    <message>
        <source>Place map image: {name}</source>
        <translation>Paiguta kaardipilt: {name}</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Veerg</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Rida</translation>
    </message>
    <message>
        <source>Latitude</source>
        <translation>Laius</translation>
    </message>
    <message>
        <source>Longitude</source>
        <translation>Pikkus</translation>
    </message>
    <message>
        <source>Error (m)</source>
        <translation>Viga (m)</translation>
    </message>
    <message>
        <source>Remove point</source>
        <translation>Eemalda punkt</translation>
    </message>
    <message>
        <source>Click a spot on the image you can find on the ground, then type its latitude and longitude in decimal degrees (e.g. 58.3781, 26.7290). Three points are needed; more are fitted by least squares, and each point&apos;s error shows which one was clicked or typed wrong.</source>
        <translation>Klõpsa pildil kohta, mille leiad ka maastikult, ja sisesta selle laius ja pikkus kümnendkraadides (nt 58.3781, 26.7290). Vaja on kolme punkti; rohkemad sobitatakse vähimruutude meetodil ja iga punkti viga näitab, kus klõpsati või sisestati valesti.</translation>
    </message>
    <message>
        <source>Point {n}: latitude and longitude must be numbers in decimal degrees, like 58.3781 and 26.7290.</source>
        <translation>Punkt {n}: laius ja pikkus peavad olema arvud kümnendkraadides, näiteks 58.3781 ja 26.7290.</translation>
    </message>
    <message>
        <source>Point {n}: latitude must be between -90 and 90 and longitude between -180 and 180 (check they are not swapped).</source>
        <translation>Punkt {n}: laius peab olema -90 ja 90 vahel ning pikkus -180 ja 180 vahel (kontrolli, et need pole vahetuses).</translation>
    </message>
    <message>
        <source>{n} of 3 points have coordinates: add {more} more.</source>
        <translation>{n} punktil 3-st on koordinaadid: lisa veel {more}.</translation>
    </message>
    <message>
        <source>The points lie on (or close to) one line, so the image cannot be placed. Pick points spread out in a wide triangle.</source>
        <translation>Punktid on ühel sirgel (või selle lähedal), nii et pilti ei saa paigutada. Vali punktid laia kolmnurgana.</translation>
    </message>
    <message>
        <source>Fit error: needs 3 points with coordinates</source>
        <translation>Sobitusviga: vaja on 3 koordinaatidega punkti</translation>
    </message>
    <message>
        <source>Fit error: 0 m (3 points fit exactly; add a 4th to check them)</source>
        <translation>Sobitusviga: 0 m (3 punkti sobivad täpselt; kontrolliks lisa 4.)</translation>
    </message>
    <message>
        <source>Fit error: {rms:.1f} m RMS over {n} points; point {worst} is furthest off ({most:.1f} m)</source>
        <translation>Sobitusviga: {rms:.1f} m RMS {n} punkti üle; punkt {worst} on kõige kaugemal ({most:.1f} m)</translation>
    </message>
    <message>
        <source>Could not save the placement: {error}</source>
        <translation>Paigutust ei saanud salvestada: {error}</translation>
    </message>
</context>
<context>
    <name>GisExportDialog</name>
    <message>
        <source>Export for GIS</source>
        <translation>Ekspordi GIS-i jaoks</translation>
    </message>
    <message>
        <source>GeoJSON (QGIS)</source>
        <translation>GeoJSON (QGIS)</translation>
    </message>
    <message>
        <source>KML (Google Earth)</source>
        <translation>KML (Google Earth)</translation>
    </message>
    <message>
        <source>GPX (GPS tools)</source>
        <translation>GPX (GPS-tööriistad)</translation>
    </message>
    <message>
        <source>TAK data package (ATAK, iTAK, WinTAK)</source>
        <translation>TAK-andmepakett (ATAK, iTAK, WinTAK)</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Vali…</translation>
    </message>
    <message>
        <source>The whole game</source>
        <translation>Kogu mäng</translation>
    </message>
    <message>
        <source>Scenario: {name}</source>
        <translation>Stsenaarium: {name}</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Vorming</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Fail</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Ekspordi</translation>
    </message>
    <message>
        <source>The field map as a GeoTIFF, the battle area and the map&apos;s named places, markers for Valhalla and HQ, and the game&apos;s TAK server: one file ATAK imports in one step.</source>
        <translation>Välja kaart GeoTIFF-ina, lahinguala ja kaardi nimega kohad, Valhalla ja staabi märgid ning mängu TAK-server: üks fail, mille ATAK impordib ühe sammuga.</translation>
    </message>
    <message>
        <source>Tracks of every group, marshal and siege engine; casualties where their marshal or their group was; STOPPs; siege engine reports.</source>
        <translation>Iga grupi, marssali ja piiramismasina rajad; kaotused seal, kus oli nende marssal või grupp; STOPPid; piiramismasinate teated.</translation>
    </message>
    <message>
        <source>Reading the game…</source>
        <translation>Mängu lugemine…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Loobu</translation>
    </message>
    <message>
        <source>The file could not be written: {error}</source>
        <translation>Faili ei saanud kirjutada: {error}</translation>
    </message>
    <message>
        <source>Written {path}: {entries}.</source>
        <translation>Kirjutatud {path}: {entries}.</translation>
    </message>
    <message>
        <source>Written {path}: {tracks} tracks, {casualties} casualties, {stopps} STOPPs, {siege} siege engine reports.</source>
        <translation>Kirjutatud {path}: {tracks} rada, {casualties} kaotust, {stopps} STOPPi, {siege} piiramismasina teadet.</translation>
    </message>
    <message>
        <source>{n} events had no position to put them at.</source>
        <translation>{n} sündmusel polnud asukohta, kuhu need panna.</translation>
    </message>
</context>
<context>
    <name>InspectionForm</name>
    <message>
        <source>Cannot judge these measurements: {0}</source>
        <translation>Neid mõõte ei saa hinnata: {0}</translation>
    </message>
    <message>
        <source>Enter the measurements: the verdict follows each one.</source>
        <translation>Sisesta mõõdud: otsus järgneb igaühele.</translation>
    </message>
    <message>
        <source>PASSES Appendix 1</source>
        <translation>VASTAB 1. lisale</translation>
    </message>
    <message>
        <source> · {0}</source>
        <translation> · {0}</translation>
    </message>
    <message numerus="yes">
        <source>FAILS Appendix 1 on %n criteria:</source>
        <translation>
            <numerusform>EI VASTA 1. lisale %n kriteeriumi järgi:</numerusform>
            <numerusform>EI VASTA 1. lisale %n kriteeriumi järgi:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>InviteDialog</name>
    <message>
        <source>Invite staff to the web view</source>
        <translation>Kutsu töötajad veebivaatesse</translation>
    </message>
    <message>
        <source>viewer: sees the battle</source>
        <translation>vaatleja: näeb lahingut</translation>
    </message>
    <message>
        <source>safety: sees and acknowledges safety alarms</source>
        <translation>ohutus: näeb ja kinnitab ohutushäireid</translation>
    </message>
    <message>
        <source>Valhalla gate: checks the dead in</source>
        <translation>Valhalla värav: registreerib surnuid</translation>
    </message>
    <message>
        <source>marshal: reports as a handset does</source>
        <translation>marssal: teatab nagu käsiseade</translation>
    </message>
    <message>
        <source>who it is for</source>
        <translation>kellele see on</translation>
    </message>
    <message>
        <source>none</source>
        <translation>puudub</translation>
    </message>
    <message>
        <source>until</source>
        <translation>kuni</translation>
    </message>
    <message>
        <source>Where phones reach this laptop&apos;s web view (its address on the tent&apos;s Wi-Fi and the port given to --web)</source>
        <translation>Kus telefonid selle sülearvuti veebivaate leiavad (selle aadress telgi WiFi-s ja --web-ile antud port)</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Roll</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nimi</translation>
    </message>
    <message>
        <source>Badge</source>
        <translation>Märk</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Aadress</translation>
    </message>
    <message>
        <source>&amp;Invite</source>
        <translation>&amp;Kutsu</translation>
    </message>
    <message>
        <source>Give the name of the person invited.</source>
        <translation>Anna kutsutava nimi.</translation>
    </message>
    <message>
        <source>Certificate (SHA-256): {fp}</source>
        <translation>Sertifikaat (SHA-256): {fp}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>controlroom</source>
        <extracomment>The version of the docks&apos; layout saved in the settings: a layout saved by an older window is not restored. The window&apos;s size on a screen large enough for it (smaller screens: the whole screen). The window&apos;s size drawn without a screen (the offscreen platform: screenshots, tests). Below this screen height the docks share one column beside the map (a laptop) ... ... and also when the side panels would leave the map less than this share of the width (large text). The map&apos;s layers are drawn again at most this often (ms); the core publishes every 100 ms, and at 8,000 players drawing every delta kept the window busy (bench_map). Whom the casualties layer shows is planned again at most this often (ms), and the movement trails (a point every 5 game seconds) set again at most this often: each sets every marker of its layer again.</extracomment>
        <translation>controlroom</translation>
    </message>
    <message>
        <source>Opening the game…</source>
        <translation>Mängu avamine…</translation>
    </message>
    <message>
        <source>{name} ({badge}, {group}) died</source>
        <translation>{name} ({badge}, {group}) suri</translation>
    </message>
    <message>
        <source>Roster imported: {added} players added to the game ({unchanged} of the file&apos;s players were in it already).</source>
        <translation>Nimekiri imporditud: mängu lisati {added} mängijat (faili mängijatest {unchanged} olid seal juba olemas).</translation>
    </message>
    <message>
        <source>&amp;Game</source>
        <translation>&amp;Mäng</translation>
    </message>
    <message>
        <source>&amp;Open game…</source>
        <translation>&amp;Ava mäng…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Ava &amp;hiljutine</translation>
    </message>
    <message>
        <source>&amp;Export report…</source>
        <translation>&amp;Ekspordi aruanne…</translation>
    </message>
    <message>
        <source>Export for &amp;GIS (GeoJSON, GPX, KML)…</source>
        <translation>Ekspordi &amp;GIS-i jaoks (GeoJSON, GPX, KML)…</translation>
    </message>
    <message>
        <source>&amp;Import roster…</source>
        <translation>&amp;Impordi nimekiri…</translation>
    </message>
    <message>
        <source>&amp;Devices…</source>
        <translation>&amp;Seadmed…</translation>
    </message>
    <message>
        <source>Re&amp;play…</source>
        <translation>&amp;Taasesitus…</translation>
    </message>
    <message>
        <source>Invite &amp;staff…</source>
        <translation>Kutsu &amp;töötajad…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Välju</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Redigeeri</translation>
    </message>
    <message>
        <source>&amp;Undo my last entry (within a minute)</source>
        <translation>&amp;Võta viimane kanne tagasi (minuti jooksul)</translation>
    </message>
    <message>
        <source>&amp;Find a player or group…</source>
        <translation>&amp;Otsi mängijat või gruppi…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Vaade</translation>
    </message>
    <message>
        <source>&amp;Legend</source>
        <translation>&amp;Legend</translation>
    </message>
    <message>
        <source>&amp;Place a map (image, GeoTIFF, MBTiles)…</source>
        <translation>&amp;Paiguta kaart (pilt, GeoTIFF, MBTiles)…</translation>
    </message>
    <message>
        <source>&amp;Night mode</source>
        <translation>&amp;Öörežiim</translation>
    </message>
    <message>
        <source>&amp;Dim the map at night</source>
        <translation>&amp;Tumenda kaarti öösel</translation>
    </message>
    <message>
        <source>{percent} % darker</source>
        <translation>{percent} % tumedam</translation>
    </message>
    <message>
        <source>&amp;Large text</source>
        <translation>&amp;Suur tekst</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Abi</translation>
    </message>
    <message>
        <source>Open &amp;log folder</source>
        <translation>Ava &amp;logikaust</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Keel</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Keel</translation>
    </message>
    <message>
        <source>From the next start, the window&apos;s language is: {language}.</source>
        <translation>Järgmisest käivitusest alates on akna keel: {language}.</translation>
    </message>
    <message>
        <source>Alarms</source>
        <translation>Häired</translation>
    </message>
    <message>
        <source>Dying and waking</source>
        <translation>Suremine ja ärkamine</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Sündmused</translation>
    </message>
    <message>
        <source>Controls</source>
        <translation>Juhtimine</translation>
    </message>
    <message>
        <source>Valhalla</source>
        <translation>Valhalla</translation>
    </message>
    <message>
        <source>Siege</source>
        <translation>Piiramine</translation>
    </message>
    <message>
        <source>Radio</source>
        <translation>Raadio</translation>
    </message>
</context>
<context>
    <name>MapLayers</name>
    <message>
        <source>position by TAK, not authenticated</source>
        <extracomment>A marshal&apos;s own position stands for a casualty&apos;s when heard this recently before the report.</extracomment>
        <translation>asukoht TAK-ist, autentimata</translation>
    </message>
    <message>
        <source>where reported</source>
        <translation>teatatud kohas</translation>
    </message>
    <message>
        <source>at the reporting marshal</source>
        <translation>teatanud marssali juures</translation>
    </message>
    <message>
        <source>badge {badge}: {state} ({how})</source>
        <translation>märk {badge}: {state} ({how})</translation>
    </message>
    <message>
        <source>badge {badge}: {state} (near group {group}, no position reported)</source>
        <translation>märk {badge}: {state} (grupi {group} lähedal, asukohta ei teatatud)</translation>
    </message>
</context>
<context>
    <name>MapLegend</name>
    <message>
        <source>marshal</source>
        <extracomment>A symbol too light for the day background (the marshals&apos; yellow) is drawn on a dark chip, as the map draws it with a dark outline.</extracomment>
        <translation>marssal</translation>
    </message>
    <message>
        <source>tracker</source>
        <translation>jälgija</translation>
    </message>
    <message>
        <source>siege engine</source>
        <translation>piiramismasin</translation>
    </message>
    <message>
        <source>STOPP</source>
        <translation>STOPP</translation>
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
        <source>Valhalla</source>
        <translation>Valhalla</translation>
    </message>
    <message>
        <source>Group: name up↑ down↓ dead†</source>
        <translation>Grupp: nimi püsti↑ maas↓ surnud†</translation>
    </message>
    <message>
        <source>Sides</source>
        <translation>Pooled</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>(veel pole)</translation>
    </message>
</context>
<context>
    <name>MapView</name>
    <message>
        <source>East</source>
        <extracomment>Layer names in drawing order, bottom first. How dark night mode makes the map (the overlay&apos;s opacity), and the levels offered in View. The night overlay&apos;s half-size in metres: more than any field. Default repaint rate (guide: 5 to 10 Hz, independent of the data rate). A marker was clicked: (layer name, index into the arrays last given to set_layer). The drawing frame (metres around the field&apos;s centre); set by the map, or by the first positions.</extracomment>
        <translation>Ida</translation>
    </message>
    <message>
        <source>North</source>
        <translation>Põhi</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>Grupid</translation>
    </message>
    <message>
        <source>Marshals</source>
        <translation>Marssalid</translation>
    </message>
    <message>
        <source>Trackers</source>
        <translation>Jälgijad</translation>
    </message>
    <message>
        <source>Siege engines</source>
        <translation>Piiramismasinad</translation>
    </message>
    <message>
        <source>STOPP incidents</source>
        <translation>STOPP-juhtumid</translation>
    </message>
    <message>
        <source>Valhalla</source>
        <translation>Valhalla</translation>
    </message>
    <message>
        <source>Casualties</source>
        <translation>Kaotused</translation>
    </message>
    <message>
        <source>Movement trails</source>
        <translation>Liikumisjäljed</translation>
    </message>
    <message>
        <source>Fit to field</source>
        <translation>Mahuta väljakule</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>Show the whole field</source>
        <translation>Näita kogu väljakut</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Kihid</translation>
    </message>
    <message>
        <source>{layer}: {x:.0f} m E, {y:.0f} m N</source>
        <translation>{layer}: {x:.0f} m I, {y:.0f} m P</translation>
    </message>
</context>
<context>
    <name>PlanDialog</name>
    <message>
        <source>Plan radio coverage</source>
        <translation>Raadiolevi planeerimine</translation>
    </message>
    <message>
        <source>one more gateway here</source>
        <translation>üks lüüs veel siia</translation>
    </message>
    <message>
        <source>none: free space, hills cast no shadow</source>
        <translation>puudub: vaba ruum, künkad varju ei heida</translation>
    </message>
    <message>
        <source>&amp;DEM…</source>
        <translation>&amp;Kõrgusmudel…</translation>
    </message>
    <message>
        <source>Terrain (GeoTIFF)</source>
        <translation>Maastik (GeoTIFF)</translation>
    </message>
    <message>
        <source>Spreading factor</source>
        <translation>Laotustegur</translation>
    </message>
    <message>
        <source>Handsets&apos; power</source>
        <translation>Käsiseadmete võimsus</translation>
    </message>
    <message>
        <source>Clutter loss</source>
        <translation>Takistuste kadu</translation>
    </message>
    <message>
        <source>Cells</source>
        <translation>Ruudud</translation>
    </message>
    <message>
        <source>The best gateway</source>
        <translation>Parim lüüs</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Näita</translation>
    </message>
    <message>
        <source>&amp;Add a gateway</source>
        <translation>&amp;Lisa lüüs</translation>
    </message>
    <message>
        <source>&amp;Remove the last</source>
        <translation>&amp;Eemalda viimane</translation>
    </message>
    <message>
        <source>Add gateways and drag them on the map.</source>
        <translation>Lisa lüüsid ja lohista need kaardil paika.</translation>
    </message>
    <message>
        <source>gateway {n}</source>
        <translation>lüüs {n}</translation>
    </message>
    <message>
        <source>Gateway {n}</source>
        <translation>Lüüs {n}</translation>
    </message>
    <message>
        <source>Elevation model (DEM)</source>
        <translation>Kõrgusmudel (DEM)</translation>
    </message>
    <message>
        <source>GeoTIFF (*.tif *.tiff)</source>
        <translation>GeoTIFF (*.tif *.tiff)</translation>
    </message>
    <message>
        <source>the map</source>
        <translation>kaart</translation>
    </message>
    <message>
        <source>Planning: {model}</source>
        <translation>Planeerin: {model}</translation>
    </message>
    <message>
        <source>{share:.0f} % of the field is heard (margin 0 dB or more). {model}</source>
        <translation>{share:.0f} % väljast on kuuldav (varu 0 dB või rohkem). {model}</translation>
    </message>
    <message>
        <source>The star marks where one more gateway would help most.</source>
        <translation>Täht näitab, kus üks lüüs veel aitaks kõige rohkem.</translation>
    </message>
</context>
<context>
    <name>PlayerCard</name>
    <message>
        <source>Time</source>
        <translation>Aeg</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Sündmus</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Üksikasjad</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Allikas</translation>
    </message>
    <message>
        <source>Correct this report…</source>
        <translation>Paranda see teade…</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Ajalugu</translation>
    </message>
    <message>
        <source>{name} (badge {badge})</source>
        <translation>{name} (märk {badge})</translation>
    </message>
    <message>
        <source>{name} · badge {badge}</source>
        <translation>{name} · märk {badge}</translation>
    </message>
    <message>
        <source>bound</source>
        <translation>seotud</translation>
    </message>
    <message>
        <source>cared for by {0}</source>
        <translation>hooldab {0}</translation>
    </message>
    <message>
        <source>in Valhalla</source>
        <translation>Valhallas</translation>
    </message>
    <message>
        <source>{side} / {group} · {cls}
State: {condition}{extra}
Hit points {hp} of {max_hp} · armour points {ap} of {max_ap} · {deaths} deaths</source>
        <translation>{side} / {group} · {cls}
Seisund: {condition}{extra}
Elupunktid {hp}/{max_hp} · turvisepunktid {ap}/{max_ap} · surmi:&#xa0;{deaths}</translation>
    </message>
    <message>
        <source>(TAK, not authenticated)</source>
        <translation>(TAK, autentimata)</translation>
    </message>
    <message>
        <source>Retracted: a wrong report, left out of the game.</source>
        <translation>Tagasi võetud: vale teade, mängust välja jäetud.</translation>
    </message>
    <message>
        <source>position by TAK, not authenticated</source>
        <translation>asukoht TAK-ist, autentimata</translation>
    </message>
    <message>
        <source>Reported by: {0}</source>
        <translation>Teatas: {0}</translation>
    </message>
    <message>
        <source>nobody yet</source>
        <translation>veel keegi</translation>
    </message>
    <message>
        <source> (held by a STOPP)</source>
        <translation> (STOPPi tõttu peatatud)</translation>
    </message>
    <message>
        <source>Deadlines: {0}</source>
        <translation>Tähtajad: {0}</translation>
    </message>
    <message>
        <source>none</source>
        <translation>puuduvad</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Drive</source>
        <translation>Ketas</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>&amp;Kaust:</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>Faili &amp;nimi:</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>Faili&amp;tüüp:</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>&amp;Ava</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Salvesta</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Kustuta</translation>
    </message>
    <message>
        <source>&amp;New Folder</source>
        <translation>&amp;Uus kaust</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Nimeta ümber</translation>
    </message>
    <message>
        <source>All Files (*)</source>
        <translation>Kõik failid (*)</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Tagasi</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>Edasi</translation>
    </message>
    <message>
        <source>Go back</source>
        <translation>Mine tagasi</translation>
    </message>
    <message>
        <source>Go forward</source>
        <translation>Mine edasi</translation>
    </message>
    <message>
        <source>Parent Directory</source>
        <translation>Ülemkaust</translation>
    </message>
    <message>
        <source>Go to the parent directory</source>
        <translation>Mine ülemkausta</translation>
    </message>
    <message>
        <source>Create New Folder</source>
        <translation>Loo uus kaust</translation>
    </message>
    <message>
        <source>Create a New Folder</source>
        <translation>Loo uus kaust</translation>
    </message>
    <message>
        <source>List View</source>
        <translation>Loendivaade</translation>
    </message>
    <message>
        <source>Change to list view mode</source>
        <translation>Näita loendina</translation>
    </message>
    <message>
        <source>Detail View</source>
        <translation>Üksikasjalik vaade</translation>
    </message>
    <message>
        <source>Change to detail view mode</source>
        <translation>Näita üksikasjadega</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Failid</translation>
    </message>
    <message>
        <source>Sidebar</source>
        <translation>Külgriba</translation>
    </message>
    <message>
        <source>List of places and bookmarks</source>
        <translation>Kohad ja järjehoidjad</translation>
    </message>
    <message>
        <source>Show &amp;hidden files</source>
        <translation>Näita &amp;peidetud faile</translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>Name</source>
        <translation>Nimi</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Suurus</translation>
    </message>
    <message>
        <source>Date Modified</source>
        <translation>Muudetud</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>Arvuti</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Salvesta</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>Salvesta kõik</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Ava</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Jah</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>Jah &amp;kõigile</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Ei</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>Ei kõ&amp;igile</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>Katkesta</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Proovi uuesti</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>Eira</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Sulge</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Loobu</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Loobu muudatustest</translation>
    </message>
    <message>
        <source>Don&apos;t Save</source>
        <translation>Ära salvesta</translation>
    </message>
    <message>
        <source>Close without Saving</source>
        <translation>Sulge salvestamata</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>Abi</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Rakenda</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Lähtesta</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>Taasta vaikeväärtused</translation>
    </message>
</context>
<context>
    <name>RadioPanel</name>
    <message>
        <source>Radio</source>
        <extracomment>The most frames kept (the station sends its last 200).</extracomment>
        <translation>Raadio</translation>
    </message>
    <message>
        <source>Filter frames (device, verdict, detail...)</source>
        <translation>Filtreeri kaadreid (seade, otsus, üksikasi...)</translation>
    </message>
    <message>
        <source>Gateway links</source>
        <translation>Lüüside ühendused</translation>
    </message>
    <message>
        <source>Frames per gateway</source>
        <translation>Kaadrid lüüsi kaupa</translation>
    </message>
    <message>
        <source>Devices heard</source>
        <translation>Kuuldud seadmed</translation>
    </message>
    <message>
        <source>TAK phones (not authenticated)</source>
        <translation>TAK-telefonid (autentimata)</translation>
    </message>
    <message>
        <source>Frame log</source>
        <translation>Kaadrite logi</translation>
    </message>
    <message>
        <source>Security alarm: {0} forged frame(s) received</source>
        <translation>Turvahäire: saabus {0} võltsitud kaadrit</translation>
    </message>
</context>
<context>
    <name>ReplayWindow</name>
    <message>
        <source>Replay (read-only)</source>
        <translation>Taasesitus (ainult lugemiseks)</translation>
    </message>
    <message>
        <source>Reading the game…</source>
        <translation>Mängu lugemine…</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Esita</translation>
    </message>
    <message>
        <source>{speed}×</source>
        <translation>{speed}×</translation>
    </message>
    <message>
        <source>Playback speed: game time per real time</source>
        <translation>Esituskiirus: mänguaeg päris aja kohta</translation>
    </message>
    <message>
        <source>The moment shown (drag to any time of the game)</source>
        <translation>Näidatav hetk (lohista mängu mis tahes ajale)</translation>
    </message>
    <message>
        <source>Scenario:</source>
        <translation>Stsenaarium:</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ Eelmine</translation>
    </message>
    <message>
        <source>What the step buttons step to</source>
        <translation>Millele sammunupud liiguvad</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>Järgmine ▶</translation>
    </message>
    <message>
        <source>Dying and waking</source>
        <translation>Suremine ja ärkamine</translation>
    </message>
    <message>
        <source>Valhalla</source>
        <translation>Valhalla</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Sündmused</translation>
    </message>
    <message>
        <source>&amp;Replay</source>
        <translation>&amp;Taasesitus</translation>
    </message>
    <message>
        <source>Export the map as &amp;PNG…</source>
        <translation>Ekspordi kaart &amp;PNG-na…</translation>
    </message>
    <message>
        <source>Export the battle as &amp;video (MP4 or GIF)…</source>
        <translation>Ekspordi lahing &amp;videona (MP4 või GIF)…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Sulge</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Vaade</translation>
    </message>
    <message>
        <source>Radio &amp;coverage</source>
        <translation>Raadio&amp;levi</translation>
    </message>
    <message>
        <source>The whole game</source>
        <translation>Kogu mäng</translation>
    </message>
    <message>
        <source>{name} ({start} to {end})</source>
        <translation>{name} ({start} kuni {end})</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>nimetu</translation>
    </message>
    <message>
        <source>death</source>
        <translation>surm</translation>
    </message>
    <message>
        <source>STOPP</source>
        <translation>STOPP</translation>
    </message>
    <message>
        <source>{events} events read in {seconds:.1f} s</source>
        <translation>{events} sündmust loetud {seconds:.1f} s jooksul</translation>
    </message>
    <message>
        <source>The game could not be read: {error}</source>
        <translation>Mängu ei saanud lugeda: {error}</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Taasesitus</translation>
    </message>
    <message>
        <source>The game&apos;s map could not be opened: {error}</source>
        <translation>Mängu kaarti ei saanud avada: {error}</translation>
    </message>
    <message>
        <source>{time}   {scenario}   (found in {seek:.0f} ms)</source>
        <translation>{time}   {scenario}   (leitud {seek:.0f} ms jooksul)</translation>
    </message>
    <message>
        <source>No {kind} after {time}.</source>
        <translation>Pärast {time} pole: {kind}.</translation>
    </message>
    <message>
        <source>No {kind} before {time}.</source>
        <translation>Enne {time} pole: {kind}.</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Paus</translation>
    </message>
    <message>
        <source>Export the map as PNG</source>
        <translation>Ekspordi kaart PNG-na</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-pildid (*.png)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Ekspordi</translation>
    </message>
    <message>
        <source>The map could not be saved: {error}</source>
        <translation>Kaarti ei saanud salvestada: {error}</translation>
    </message>
    <message>
        <source>The map at {time} is saved as {path}.</source>
        <translation>Kaart hetkel {time} on salvestatud: {path}.</translation>
    </message>
</context>
<context>
    <name>RosterImportDialog</name>
    <message>
        <source>Import roster</source>
        <translation>Nimekirja import</translation>
    </message>
    <message>
        <source>No file chosen</source>
        <translation>Faili pole valitud</translation>
    </message>
    <message>
        <source>Choose file…</source>
        <translation>Vali fail…</translation>
    </message>
    <message>
        <source>Columns this program does not know</source>
        <translation>Veerud, mida programm ei tunne</translation>
    </message>
    <message>
        <source>Words the game&apos;s ruleset does not know</source>
        <translation>Sõnad, mida mängu reeglistik ei tunne</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Probleemid</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Impordi</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Loobu</translation>
    </message>
    <message>
        <source>Badge number</source>
        <translation>Märgi number</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nimi</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>Pool</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Grupp</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>Klass</translation>
    </message>
    <message>
        <source>Paid</source>
        <translation>Makstud</translation>
    </message>
    <message>
        <source>Helmet</source>
        <translation>Kiiver</translation>
    </message>
    <message>
        <source>Armour</source>
        <translation>Turvis</translation>
    </message>
    <message>
        <source>Hit points (game master&apos;s)</source>
        <translation>Elupunktid (mängujuhi määratud)</translation>
    </message>
    <message>
        <source>Armour points (game master&apos;s)</source>
        <translation>Turvisepunktid (mängujuhi määratud)</translation>
    </message>
    <message>
        <source>Inadequate armour</source>
        <translation>Ebapiisav turvis</translation>
    </message>
    <message>
        <source>Roster file</source>
        <translation>Nimekirja fail</translation>
    </message>
    <message>
        <source>Roster file (CSV or .xlsx)</source>
        <translation>Nimekirja fail (CSV või .xlsx)</translation>
    </message>
    <message>
        <source>Choose the file the registration desk exported (CSV, UTF-8, or an Excel workbook, .xlsx).</source>
        <translation>Vali fail, mille registreerimislaud eksportis (CSV, UTF-8, või Exceli töövihik, .xlsx).</translation>
    </message>
    <message>
        <source>Roster files (*.csv *.txt *.xlsx);;All files (*)</source>
        <translation>Nimekirja failid (*.csv *.txt *.xlsx);;Kõik failid (*)</translation>
    </message>
    <message>
        <source>cannot read {file}: {error}</source>
        <translation>faili {file} ei saa lugeda: {error}</translation>
    </message>
    <message>
        <source>(leave out)</source>
        <translation>(jäta välja)</translation>
    </message>
    <message>
        <source>“{header}” is</source>
        <translation>„{header}” on</translation>
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
        <source>(not known)</source>
        <translation>(tundmatu)</translation>
    </message>
    <message>
        <source>Helmet “{word}” (its kind not written) is</source>
        <translation>Kiiver „{word}” (liik kirjutamata) on</translation>
    </message>
    <message>
        <source>{field} “{word}” is</source>
        <translation>{field} „{word}” on</translation>
    </message>
    <message>
        <source>The game is still opening; try again in a moment.</source>
        <translation>Mäng alles avaneb; proovi hetke pärast uuesti.</translation>
    </message>
    <message>
        <source>{file}: {players} players; {columns} columns</source>
        <translation>{file}: mängijaid {players}, veerge {columns}</translation>
    </message>
    <message>
        <source>Adding the players to the game…</source>
        <translation>Mängijate lisamine mängu…</translation>
    </message>
    <message>
        <source>Checking the players against the game…</source>
        <translation>Mängijate kontrollimine mängu vastu…</translation>
    </message>
    <message>
        <source>The game cannot take these players as they are: nothing was imported.</source>
        <translation>Mäng ei saa neid mängijaid sellisel kujul vastu võtta: midagi ei imporditud.</translation>
    </message>
    <message>
        <source>{added} players added to the game.</source>
        <translation>Mängu lisati {added} mängijat.</translation>
    </message>
    <message>
        <source>Every player of this file is in the game already; nothing to import.</source>
        <translation>Kõik selle faili mängijad on juba mängus; pole midagi importida.</translation>
    </message>
    <message>
        <source>Ready: {added} new players will be added to the game; {unchanged} of the file&apos;s players are in it already.</source>
        <translation>Valmis: mängu lisatakse {added} uut mängijat; faili mängijatest {unchanged} on seal juba olemas.</translation>
    </message>
    <message>
        <source>Problems: {count} (nothing is imported while one stands)</source>
        <translation>Probleeme: {count} (seni, kuni mõni on lahendamata, ei impordita midagi)</translation>
    </message>
    <message>
        <source>Problems: none</source>
        <translation>Probleeme: pole</translation>
    </message>
    <message>
        <source>Map the columns and words the file uses, or correct the file and choose it again.</source>
        <translation>Seo faili veerud ja sõnad või paranda fail ja vali see uuesti.</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Rida</translation>
    </message>
    <message>
        <source>{header}
(left out)</source>
        <translation>{header}
(välja jäetud)</translation>
    </message>
</context>
<context>
    <name>SideCountsLabel</name>
    <message>
        <source>{side}: {active} up, {down} down, {dead} dead</source>
        <translation>{side}: {active} püsti, {down} maas, {dead} surnud</translation>
    </message>
    <message>
        <source>{side} {active}↑ {down}↓ {dead}†</source>
        <translation>{side} {active}↑ {down}↓ {dead}†</translation>
    </message>
</context>
<context>
    <name>SideSummaryBar</name>
    <message>
        <source>{side}: {active} active · {unconscious} unconscious · {knocked_out} knocked out · {dead} dead</source>
        <translation>{side}: {active} aktiivset · {unconscious} teadvuseta · {knocked_out} uimastatud · {dead} surnud</translation>
    </message>
</context>
<context>
    <name>SiegeModel</name>
    <message>
        <source>No position reported</source>
        <translation>Asukohta ei teatatud</translation>
    </message>
</context>
<context>
    <name>SiegePanel</name>
    <message>
        <source>Siege engines</source>
        <translation>Piiramismasinad</translation>
    </message>
</context>
<context>
    <name>SpeakAlarmsAction</name>
    <message>
        <source>&amp;Speak alarms</source>
        <translation>Loe häired &amp;ette</translation>
    </message>
    <message>
        <source>Install espeak-ng to hear the alarms spoken</source>
        <translation>Paigalda espeak-ng, et häireid ette loetuna kuulda</translation>
    </message>
</context>
<context>
    <name>StartChoice</name>
    <message>
        <source>The roster needs a look before it is imported: see the import window.</source>
        <translation>Nimekiri vajab enne importimist ülevaatamist: vaata importimise akent.</translation>
    </message>
</context>
<context>
    <name>StartDialog</name>
    <message>
        <source>Welcome to controlroom</source>
        <translation>Tere tulemast controlroomi</translation>
    </message>
    <message>
        <source>The control room for LARP battles: the live map, the rules&apos; timers, the radios and the casualty report. Start a new game, open one, or try the demo first.</source>
        <translation>LARP-lahingute juhtimiskeskus: elav kaart, reeglite taimerid, raadiod ja kaotuste aruanne. Alusta uut mängu, ava mõni olemasolev või proovi kõigepealt demot.</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Välju</translation>
    </message>
    <message>
        <source>Start a new game</source>
        <translation>Alusta uut mängu</translation>
    </message>
    <message>
        <source>for example: Summer battle 2026</source>
        <translation>näiteks: Suvelahing 2026</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>valikuline</translation>
    </message>
    <message>
        <source>An image with its world file, a GeoTIFF or MBTiles; it can also be placed later (View, Place a map)</source>
        <translation>Pilt koos maailmafailiga, GeoTIFF või MBTiles; selle saab paigutada ka hiljem (Vaade, Paiguta kaart)</translation>
    </message>
    <message>
        <source>The registration desk&apos;s file (CSV); it can also be imported later (Game, Import roster)</source>
        <translation>Registreerimislaua fail (CSV); selle saab importida ka hiljem (Mäng, Impordi nimekiri)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nimi</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>Kaart</translation>
    </message>
    <message>
        <source>Roster</source>
        <translation>Nimekiri</translation>
    </message>
    <message>
        <source>Saved in {folder}</source>
        <translation>Salvestatakse kausta {folder}</translation>
    </message>
    <message>
        <source>Start the new game</source>
        <translation>Alusta uut mängu</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Vali…</translation>
    </message>
    <message>
        <source>Open a game</source>
        <translation>Ava mäng</translation>
    </message>
    <message>
        <source>Open a game file…</source>
        <translation>Ava mängufail…</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Ühenda</translation>
    </message>
    <message>
        <source>or a game on a PostgreSQL server, by its address:</source>
        <translation>või mäng PostgreSQL-serveris, selle aadressi järgi:</translation>
    </message>
    <message>
        <source>Recent games</source>
        <translation>Viimased mängud</translation>
    </message>
    <message>
        <source>{game} (not found)</source>
        <translation>{game} (ei leitud)</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Ava</translation>
    </message>
    <message>
        <source>No game opened yet.</source>
        <translation>Ühtegi mängu pole veel avatud.</translation>
    </message>
    <message>
        <source>Try the demo</source>
        <translation>Proovi demot</translation>
    </message>
    <message>
        <source>A simulated battle of 300 players on a demo field, with radios, STOPPs and casualties: the control room at work. None of your games is touched.</source>
        <translation>Simuleeritud lahing 300 mängijaga demoväljal, raadiote, STOPPide ja kaotustega: juhtimiskeskus töös. Sinu mänge see ei puuduta.</translation>
    </message>
    <message>
        <source>Start the demo</source>
        <translation>Käivita demo</translation>
    </message>
    <message>
        <source>Give the new game a name.</source>
        <translation>Anna uuele mängule nimi.</translation>
    </message>
    <message>
        <source>A game named “{name}” is in the games folder already: open it from the recent games or as a game file, or give the new one another name.</source>
        <translation>Mäng nimega „{name}” on mängude kaustas juba olemas: ava see viimaste mängude seast või mängufailina, või anna uuele mängule teine nimi.</translation>
    </message>
    <message>
        <source>The map file {file} cannot be found.</source>
        <translation>Kaardifaili {file} ei leitud.</translation>
    </message>
    <message>
        <source>The roster file {file} cannot be found.</source>
        <translation>Nimekirja faili {file} ei leitud.</translation>
    </message>
    <message>
        <source>The games folder {folder} cannot be made: {error}</source>
        <translation>Mängude kausta {folder} ei saa luua: {error}</translation>
    </message>
    <message>
        <source>The field&apos;s map</source>
        <translation>Välja kaart</translation>
    </message>
    <message>
        <source>Maps (*.png *.jpg *.jpeg *.tif *.tiff *.mbtiles);;All files (*)</source>
        <translation>Kaardid (*.png *.jpg *.jpeg *.tif *.tiff *.mbtiles);;Kõik failid (*)</translation>
    </message>
    <message>
        <source>The registration desk&apos;s roster</source>
        <translation>Registreerimislaua nimekiri</translation>
    </message>
    <message>
        <source>Rosters (*.csv *.txt *.xlsx);;All files (*)</source>
        <translation>Nimekirjad (*.csv *.txt *.xlsx);;Kõik failid (*)</translation>
    </message>
    <message>
        <source>controlroom games (*{suffix});;All files (*)</source>
        <translation>controlroomi mängud (*{suffix});;Kõik failid (*)</translation>
    </message>
    <message>
        <source>The game file {file} cannot be found.</source>
        <translation>Mängufaili {file} ei leitud.</translation>
    </message>
    <message>
        <source>A PostgreSQL address begins with postgresql://, for example postgresql://user@host/game.</source>
        <translation>PostgreSQL-i aadress algab kujul postgresql://, näiteks postgresql://kasutaja@server/mäng.</translation>
    </message>
    <message>
        <source>Choose one of the recent games first.</source>
        <translation>Vali kõigepealt üks viimastest mängudest.</translation>
    </message>
</context>
<context>
    <name>TakPhoneModel</name>
    <message>
        <source>unknown: not drawn</source>
        <translation>tundmatu: ei joonistata</translation>
    </message>
    <message>
        <source>Anyone on the TAK network could send positions under this uid or callsign: they are shown on the map, and no rule uses them.</source>
        <translation>Igaüks TAK-võrgus võiks selle uid või kutsungi all asukohti saata: need näidatakse kaardil ja ükski reegel neid ei kasuta.</translation>
    </message>
    <message>
        <source>A TAK phone no marshal is registered with (controlroom keys new ID --role marshal --tak-uid {uid}): listed here, not drawn on the map.</source>
        <translation>TAK-telefon, millega pole ühtegi marssalit registreeritud (controlroom keys new ID --role marshal --tak-uid {uid}): loetletud siin, kaardile ei joonistata.</translation>
    </message>
    <message>
        <source>at {0}</source>
        <translation>kell {0}</translation>
    </message>
</context>
<context>
    <name>TimelineModel</name>
    <message>
        <source>Retracted: a wrong report, left out of the game.</source>
        <extracomment>The most rows added in one turn of the event loop: more (the 20,000 of the cap, or 200,000 given to a panel whose cap was raised) come CHUNK at a time, one turn after another, so that the window is held for a few milliseconds a turn, not at once (200,000 at once held it 0.3 s on the dev machine).</extracomment>
        <translation>Tagasi võetud: vale teade, mängust välja jäetud.</translation>
    </message>
    <message>
        <source>Sent on a Meshtastic channel: anyone holding the channel&apos;s key could have sent it in this name.</source>
        <translation>Saadetud Meshtasticu kanalil: selle nime all võis saata igaüks, kellel on kanali võti.</translation>
    </message>
    <message>
        <source>A TAK phone&apos;s position: anyone on the TAK network could have sent it in this name. Shown on the map; no rule uses it.</source>
        <translation>TAK-telefoni asukoht: igaüks TAK-võrgus võis selle selle nime all saata. Näidatakse kaardil; ükski reegel seda ei kasuta.</translation>
    </message>
    <message>
        <source>(channel key)</source>
        <translation>(kanali võti)</translation>
    </message>
    <message>
        <source>(TAK, not authenticated)</source>
        <translation>(TAK, autentimata)</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <source>Filter: a name, a badge, an event, a source...</source>
        <extracomment>Rows always shown: the window never makes the panel smaller than this. The panel scrolls its own rows: the window puts it in a dock as it is.</extracomment>
        <translation>Filter: nimi, märk, sündmus, allikas...</translation>
    </message>
    <message>
        <source>Correct this report…</source>
        <extracomment>The columns fitted to their texts: time, event, source. Below this width the Source column is left out: the details need the room more.</extracomment>
        <translation>Paranda see teade…</translation>
    </message>
    <message>
        <source>Player card</source>
        <translation>Mängija kaart</translation>
    </message>
</context>
<context>
    <name>TimerOwnerLabel</name>
    <message>
        <source>Timers: this station</source>
        <translation>Taimerid: see jaam</translation>
    </message>
    <message>
        <source>This laptop runs the game&apos;s rule timers.</source>
        <translation>See sülearvuti käitab mängu reeglitaimereid.</translation>
    </message>
    <message>
        <source>This station runs the rule timers for every station of the game.</source>
        <translation>See jaam käitab reeglitaimereid mängu kõigile jaamadele.</translation>
    </message>
    <message>
        <source>Timers: another station</source>
        <translation>Taimerid: teine jaam</translation>
    </message>
    <message>
        <source>Another station runs the rule timers; this one takes over if it disappears.</source>
        <translation>Reeglitaimereid käitab teine jaam; see jaam võtab üle, kui too kaob.</translation>
    </message>
    <message>
        <source>Timers: server unreachable</source>
        <translation>Taimerid: server kättesaamatu</translation>
    </message>
    <message>
        <source>The database server cannot be reached: reports are kept on this laptop, and the timers wait until the server is back.</source>
        <translation>Andmebaasiserverit ei saa kätte: teated hoitakse selles sülearvutis ja taimerid ootavad, kuni server on tagasi.</translation>
    </message>
</context>
<context>
    <name>ValhallaDesk</name>
    <message>
        <source>Valhalla desk</source>
        <translation>Valhalla laud</translation>
    </message>
    <message>
        <source>Badge</source>
        <translation>Märk</translation>
    </message>
    <message>
        <source>badge number, then Enter</source>
        <translation>märgi number, siis Enter</translation>
    </message>
    <message>
        <source>Check in</source>
        <translation>Registreeri</translation>
    </message>
    <message>
        <source>Type the badge number of a dead player and press Enter.</source>
        <translation>Sisesta surnud mängija märgi number ja vajuta Enter.</translation>
    </message>
    <message>
        <source>The dead and their respawn countdowns</source>
        <translation>Surnud ja nende taassünni loendurid</translation>
    </message>
    <message>
        <source>This desk&apos;s check-ins</source>
        <translation>Selle laua registreerimised</translation>
    </message>
    <message>
        <source>“{0}” is not a badge number: type it as a whole number, like 42.</source>
        <translation>„{0}” ei ole märgi number: sisesta see täisarvuna, näiteks 42.</translation>
    </message>
    <message>
        <source>No player has badge {0} in this game&apos;s roster.</source>
        <translation>Selle mängu nimekirjas pole ühelgi mängijal märki {0}.</translation>
    </message>
    <message>
        <source>The game is still opening: try again in a moment.</source>
        <translation>Mäng alles avaneb: proovi hetke pärast uuesti.</translation>
    </message>
    <message>
        <source>Checking in {0}…</source>
        <translation>Registreerin: {0}…</translation>
    </message>
    <message>
        <source>Checked in: {0}</source>
        <translation>Registreeritud: {0}</translation>
    </message>
    <message>
        <source>Respawns in {0}</source>
        <translation>Taassünd {0} pärast</translation>
    </message>
    <message>
        <source>{0} checked in</source>
        <translation>{0} registreeritud</translation>
    </message>
    <message>
        <source>{0} is not dead ({1}): only the dead check in at Valhalla.</source>
        <translation>{0} ei ole surnud ({1}): Valhallas registreeruvad ainult surnud.</translation>
    </message>
    <message>
        <source>{0} has already checked in at Valhalla.</source>
        <translation>{0} on Valhallas juba registreeritud.</translation>
    </message>
    <message>
        <source>REFUSED: {0}</source>
        <translation>KEELDUTUD: {0}</translation>
    </message>
    <message>
        <source>{0} refused</source>
        <translation>{0} keeldutud</translation>
    </message>
    <message>
        <source>{0} (badge {1})</source>
        <translation>{0} (märk {1})</translation>
    </message>
    <message>
        <source>No respawn countdowns: respawn is off in this scenario, or nobody is waiting.</source>
        <translation>Taassünni loendureid pole: taassünd on selles stsenaariumis välja lülitatud või keegi ei oota.</translation>
    </message>
    <message>
        <source>{side}
{valhalla} in Valhalla · {dead} dead · {deaths} deaths</source>
        <translation>{side}
{valhalla}&#xa0;Valhallas · {dead}&#xa0;surnud · surmi:&#xa0;{deaths}</translation>
    </message>
</context>
<context>
    <name>ValhallaPanel</name>
    <message>
        <source>Dead by group</source>
        <translation>Surnud gruppide kaupa</translation>
    </message>
    <message>
        <source>The fallen</source>
        <translation>Langenud</translation>
    </message>
    <message>
        <source>{side}
{dead} dead · {valhalla} in Valhalla · {deaths} deaths</source>
        <translation>{side}
{dead}&#xa0;surnud · {valhalla}&#xa0;Valhallas · surmi:&#xa0;{deaths}</translation>
    </message>
</context>
<context>
    <name>VideoDialog</name>
    <message>
        <source>Export the battle as video</source>
        <translation>Ekspordi lahing videona</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Vali…</translation>
    </message>
    <message>
        <source>File (.mp4 or .gif):</source>
        <translation>Fail (.mp4 või .gif):</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>Alates:</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>Kuni:</translation>
    </message>
    <message>
        <source>× game time</source>
        <translation>× mänguaeg</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>Kiirus:</translation>
    </message>
    <message>
        <source>Frames a second:</source>
        <translation>Kaadreid sekundis:</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>Suurus:</translation>
    </message>
    <message>
        <source>From and to are game times, HH:MM:SS, the first before the second.</source>
        <translation>Alates ja kuni on mänguajad kujul HH:MM:SS, esimene enne teist.</translation>
    </message>
    <message>
        <source>{frames} frames, {seconds:.0f} s of video</source>
        <translation>{frames} kaadrit, {seconds:.0f} s videot</translation>
    </message>
    <message>
        <source>Videos (*.mp4 *.gif)</source>
        <translation>Videod (*.mp4 *.gif)</translation>
    </message>
    <message>
        <source>The video cannot be made: {error}</source>
        <translation>Videot ei saa teha: {error}</translation>
    </message>
    <message>
        <source>The battle is saved as {path}.</source>
        <translation>Lahing on salvestatud: {path}.</translation>
    </message>
    <message>
        <source>The video was not made: {error}</source>
        <translation>Videot ei tehtud: {error}</translation>
    </message>
</context>
<context>
    <name>WeaponDesk</name>
    <message>
        <source>Weapon-check desk</source>
        <translation>Relvakontrolli laud</translation>
    </message>
    <message>
        <source>Badge</source>
        <translation>Märk</translation>
    </message>
    <message>
        <source>badge number, then Enter</source>
        <translation>märgi number, siis Enter</translation>
    </message>
    <message>
        <source>Type the badge number of the player whose kit is checked.</source>
        <translation>Sisesta selle mängija märgi number, kelle varustust kontrollitakse.</translation>
    </message>
    <message>
        <source>Inspections recorded</source>
        <translation>Salvestatud kontrollid</translation>
    </message>
    <message>
        <source>Appendix 1: weapon inspection</source>
        <translation>1. lisa: relvade kontroll</translation>
    </message>
    <message>
        <source>Tag number</source>
        <translation>Sildi number</translation>
    </message>
    <message>
        <source>the number on the tag tied to it</source>
        <translation>sellele seotud sildi number</translation>
    </message>
    <message>
        <source>Record inspection</source>
        <translation>Salvesta kontroll</translation>
    </message>
    <message>
        <source>Appendix 2: armour points</source>
        <translation>2. lisa: turvisepunktid</translation>
    </message>
    <message>
        <source>Record armour</source>
        <translation>Salvesta turvis</translation>
    </message>
    <message>
        <source>The game&apos;s ruleset has no usable Appendix 1: {0}</source>
        <translation>Mängu reeglistikus pole kasutatavat 1. lisa: {0}</translation>
    </message>
    <message>
        <source>Armour points {0} of {1}</source>
        <translation>Turvisepunktid {0}/{1}</translation>
    </message>
    <message>
        <source>failed tags: {0}</source>
        <translation>läbikukkunud sildid: {0}</translation>
    </message>
    <message>
        <source>No player has badge “{0}” in this game&apos;s roster.</source>
        <translation>Selle mängu nimekirjas pole ühelgi mängijal märki „{0}”.</translation>
    </message>
    <message>
        <source>Choose the player (badge) and enter the tag number first.</source>
        <translation>Vali kõigepealt mängija (märk) ja sisesta sildi number.</translation>
    </message>
    <message>
        <source>Not recorded: {0}</source>
        <translation>Ei salvestatud: {0}</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>läbis</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>EI LÄBINUD</translation>
    </message>
    <message>
        <source>Recorded tag {tag} for {name}: {outcome}.</source>
        <translation>Salvestatud silt {tag} mängijale {name}: {outcome}.</translation>
    </message>
    <message>
        <source>Choose the player (badge) first.</source>
        <translation>Vali kõigepealt mängija (märk).</translation>
    </message>
    <message>
        <source>Recorded armour for {name}: {total} armour points.</source>
        <translation>Salvestatud turvis mängijale {name}: {total} turvisepunkti.</translation>
    </message>
</context>
<context>
    <name>WindowCoverage</name>
    <message>
        <source>Radio &amp;coverage</source>
        <translation>Raadio&amp;levi</translation>
    </message>
    <message>
        <source>Where the gateways heard the handsets: cells coloured by the SNR margin, crossed where reports needed retries or went missing</source>
        <translation>Kus lüüsid käsiseadmeid kuulsid: ruudud on värvitud SNR-varu järgi, ristiga seal, kus teated vajasid kordamist või jäid kuulmata</translation>
    </message>
    <message>
        <source>Radio coverage &amp;shows</source>
        <translation>Raadiolevi &amp;näitab</translation>
    </message>
    <message>
        <source>&amp;Plan coverage…</source>
        <translation>Pla&amp;neeri levi…</translation>
    </message>
    <message>
        <source>The radio coverage before the opening could not be read: {why}</source>
        <translation>Raadiolevi enne avamist ei õnnestunud lugeda: {why}</translation>
    </message>
    <message>
        <source>The best gateway in each cell</source>
        <translation>Iga ruudu parim lüüs</translation>
    </message>
    <message>
        <source>Gateway {name}</source>
        <translation>Lüüs {name}</translation>
    </message>
    <message>
        <source>Margins over SF{sf}&apos;s floor ({floor:g} dB)</source>
        <translation>Varu SF{sf} piiri ({floor:g} dB) suhtes</translation>
    </message>
</context>
<context>
    <name>WindowEntries</name>
    <message>
        <source>Nothing to undo: no entry of yours is waiting.</source>
        <extracomment>Ctrl+Z undoes the game master&apos;s last entry only this long after it (seconds).</extracomment>
        <translation>Pole midagi tagasi võtta: ükski sinu kanne ei oota.</translation>
    </message>
    <message>
        <source>Nothing to undo: your last entry is more than a minute old (right-click it in Events, Correct this report…).</source>
        <translation>Pole midagi tagasi võtta: sinu viimane kanne on üle minuti vana (paremklõps sellel Sündmustes, Paranda see teade…).</translation>
    </message>
    <message>
        <source>undone by the game master (Ctrl+Z)</source>
        <translation>mängujuht võttis tagasi (Ctrl+Z)</translation>
    </message>
    <message>
        <source>Your last entry is taken back.</source>
        <translation>Sinu viimane kanne on tagasi võetud.</translation>
    </message>
    <message>
        <source>The report is taken back: {reason}</source>
        <translation>Teade on tagasi võetud: {reason}</translation>
    </message>
    <message>
        <source>{0}: no position known yet.</source>
        <translation>{0}: asukoht pole veel teada.</translation>
    </message>
</context>
<context>
    <name>WindowMaps</name>
    <message>
        <source>Map of the field</source>
        <translation>Väljaku kaart</translation>
    </message>
    <message>
        <source>Maps ({patterns})</source>
        <translation>Kaardid ({patterns})</translation>
    </message>
    <message>
        <source>Map</source>
        <translation>Kaart</translation>
    </message>
    <message>
        <source>The map cannot be shown: {error}</source>
        <translation>Kaarti ei saa näidata: {error}</translation>
    </message>
    <message>
        <source>The map {name} is kept with the game.</source>
        <translation>Kaart {name} on mänguga kaasas.</translation>
    </message>
    <message>
        <source>The map is kept, but its named places were not read, so reports give STOPP places by grid square only: {problem}</source>
        <translation>Kaart on mänguga salvestatud, kuid selle nimetatud kohti ei loetud, nii et aruanded annavad STOPP-ide kohad ainult ruudu järgi: {problem}</translation>
    </message>
    <message>
        <source>The map is shown, but it could not be kept with the game: {error}</source>
        <translation>Kaart on näha, kuid seda ei saanud mänguga kaasa salvestada: {error}</translation>
    </message>
    <message>
        <source>The game&apos;s map could not be opened: {error}</source>
        <translation>Mängu kaarti ei saanud avada: {error}</translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <source>Open or start a game</source>
        <translation>Ava või alusta mängu</translation>
    </message>
    <message>
        <source>controlroom games (*{suffix})</source>
        <translation>controlroomi mängud (*{suffix})</translation>
    </message>
</context>
<context>
    <name>desks</name>
    <message>
        <source>{name} (badge {badge}) · {side} / {group} · {cls} · {condition} · {deaths} deaths</source>
        <translation>{name} (märk {badge}) · {side} / {group} · {cls} · {condition} · surmi:&#xa0;{deaths}</translation>
    </message>
</context>
<context>
    <name>map</name>
    <message>
        <source>Map</source>
        <translation>Kaart</translation>
    </message>
    <message>
        <source>The map cannot be used: {error}</source>
        <translation>Kaarti ei saa kasutada: {error}</translation>
    </message>
</context>
<context>
    <name>panels</name>
    <message>
        <source>melee weapon or javelin</source>
        <translation>lähivõitlusrelv või viskeoda</translation>
    </message>
    <message>
        <source>bow or crossbow</source>
        <translation>vibu või amb</translation>
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
        <source>siege-engine arrow</source>
        <translation>piiramismasina nool</translation>
    </message>
    <message>
        <source>Length (cm, handle included)</source>
        <translation>Pikkus (cm, koos käepidemega)</translation>
    </message>
    <message>
        <source>Former (core)</source>
        <translation>Tuum (südamik)</translation>
    </message>
    <message>
        <source>Former width (mm)</source>
        <translation>Tuuma laius (mm)</translation>
    </message>
    <message>
        <source>Padding</source>
        <translation>Polster</translation>
    </message>
    <message>
        <source>Covering</source>
        <translation>Kate</translation>
    </message>
    <message>
        <source>Padding on the striking surface (mm)</source>
        <translation>Polster löögipinnal (mm)</translation>
    </message>
    <message>
        <source>Padding on the tip (mm)</source>
        <translation>Polster otsal (mm)</translation>
    </message>
    <message>
        <source>Has a stopper</source>
        <translation>On piirikuga</translation>
    </message>
    <message>
        <source>Weights added</source>
        <translation>Lisatud raskused</translation>
    </message>
    <message>
        <source>Short spear or javelin</source>
        <translation>Lühike oda või viskeoda</translation>
    </message>
    <message>
        <source>Used for thrusting</source>
        <translation>Torkamiseks</translation>
    </message>
    <message>
        <source>Weight (g)</source>
        <translation>Kaal (g)</translation>
    </message>
    <message>
        <source>Pulling strength (kg)</source>
        <translation>Tõmbejõud (kg)</translation>
    </message>
    <message>
        <source>Wholly covered with padding</source>
        <translation>Täielikult polsterdatud</translation>
    </message>
    <message>
        <source>Fletching</source>
        <translation>Sulestus</translation>
    </message>
    <message>
        <source>Tip width (mm)</source>
        <translation>Otsa laius (mm)</translation>
    </message>
    <message>
        <source>Shaft</source>
        <translation>Vars</translation>
    </message>
    <message>
        <source>Shaft width (mm)</source>
        <translation>Varre laius (mm)</translation>
    </message>
    <message>
        <source>Size (cm, at its thinnest)</source>
        <translation>Suurus (cm, kõige õhemast kohast)</translation>
    </message>
    <message>
        <source>Filling</source>
        <translation>Täidis</translation>
    </message>
    <message>
        <source>Width (cm, at its widest)</source>
        <translation>Laius (cm, kõige laiemast kohast)</translation>
    </message>
    <message>
        <source>Edge covered with padding</source>
        <translation>Serv polsterdatud</translation>
    </message>
    <message>
        <source>Sharp or protruding details</source>
        <translation>Teravad või väljaulatuvad detailid</translation>
    </message>
    <message>
        <source>Base material</source>
        <translation>Põhimaterjal</translation>
    </message>
    <message>
        <source>Used for bashing</source>
        <translation>Löömiseks</translation>
    </message>
    <message>
        <source>Arrowhead width (cm)</source>
        <translation>Noolepea laius (cm)</translation>
    </message>
    <message>
        <source>Padding over the tip (cm)</source>
        <translation>Polster otsa kohal (cm)</translation>
    </message>
    <message>
        <source>Shaft fully padded</source>
        <translation>Vars täielikult polsterdatud</translation>
    </message>
    <message>
        <source>Time</source>
        <extracomment>How long the window&apos;s timeline holds rows that come live before adding them (ms): see TimelineModel.hold_ms.</extracomment>
        <translation>Aeg</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>Silt</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Kes</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Liik</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Otsus</translation>
    </message>
    <message>
        <source>Failed criteria</source>
        <translation>Täitmata nõuded</translation>
    </message>
    <message>
        <source>{name} ({badge})</source>
        <translation>{name} ({badge})</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>läbis</translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation>EI LÄBINUD</translation>
    </message>
    <message>
        <source>STOPP</source>
        <translation>STOPP</translation>
    </message>
    <message>
        <source>Injury</source>
        <translation>Vigastus</translation>
    </message>
    <message>
        <source>Death</source>
        <translation>Surm</translation>
    </message>
    <message>
        <source>STOPP lasts too long</source>
        <translation>STOPP kestab liiga kaua</translation>
    </message>
    <message>
        <source>Late report</source>
        <translation>Hiline teade</translation>
    </message>
    <message>
        <source>Forged radio frame</source>
        <translation>Võltsitud raadiokaader</translation>
    </message>
    <message>
        <source>Replayed radio frame</source>
        <translation>Korratud raadiokaader</translation>
    </message>
    <message>
        <source>Unknown radio device</source>
        <translation>Tundmatu raadioseade</translation>
    </message>
    <message>
        <source>Gateway lost</source>
        <translation>Lüüs kadunud</translation>
    </message>
    <message>
        <source>Weak radio spot</source>
        <translation>Nõrga levi koht</translation>
    </message>
    <message>
        <source>Marshal silent</source>
        <translation>Marssal vaikib</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>Salvestus</translation>
    </message>
    <message>
        <source>SAFETY</source>
        <translation>OHUTUS</translation>
    </message>
    <message>
        <source>STORAGE</source>
        <translation>SALVESTUS</translation>
    </message>
    <message>
        <source>GAME</source>
        <translation>MÄNG</translation>
    </message>
    <message>
        <source>RADIO SECURITY</source>
        <translation>RAADIO TURVE</translation>
    </message>
    <message>
        <source>LINK</source>
        <translation>ÜHENDUS</translation>
    </message>
    <message>
        <source>Acknowledge all game</source>
        <translation>Kinnita kõik mänguhäired</translation>
    </message>
    <message>
        <source>Acknowledge all radio security</source>
        <translation>Kinnita kõik raadio turvehäired</translation>
    </message>
    <message>
        <source>Acknowledge all link</source>
        <translation>Kinnita kõik ühendushäired</translation>
    </message>
    <message>
        <source>Bound by (optional)</source>
        <translation>Sidus (valikuline)</translation>
    </message>
    <message>
        <source>the badge number of who bound the wounds</source>
        <translation>haavad sidunu märgi number</translation>
    </message>
    <message>
        <source>Healer caring</source>
        <translation>Hooldav ravitseja</translation>
    </message>
    <message>
        <source>the badge number of the healer caring</source>
        <translation>hooldava ravitseja märgi number</translation>
    </message>
    <message>
        <source>Healer</source>
        <translation>Ravitseja</translation>
    </message>
    <message>
        <source>the badge number of the healer</source>
        <translation>ravitseja märgi number</translation>
    </message>
    <message>
        <source>Killed by (optional)</source>
        <translation>Tapja (valikuline)</translation>
    </message>
    <message>
        <source>the badge number of the killer</source>
        <translation>tapja märgi number</translation>
    </message>
    <message>
        <source>Please confirm</source>
        <translation>Palun kinnita</translation>
    </message>
    <message>
        <source>Due in</source>
        <translation>Aega</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Mis</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Grupp</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>Pool</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>ühendub</translation>
    </message>
    <message>
        <source>identifying</source>
        <translation>tuvastab</translation>
    </message>
    <message>
        <source>identified</source>
        <translation>tuvastatud</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>ühendatud</translation>
    </message>
    <message>
        <source>unidentified</source>
        <translation>tuvastamata</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>kadunud</translation>
    </message>
    <message>
        <source>retrying</source>
        <translation>proovib uuesti</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>peatatud</translation>
    </message>
    <message>
        <source>TX queue</source>
        <translation>Saatejärjekord</translation>
    </message>
    <message>
        <source>Meshtastic packets</source>
        <translation>Meshtasticu pakette</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>vastu võetud</translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation>kordus</translation>
    </message>
    <message>
        <source>corrupt</source>
        <translation>rikutud</translation>
    </message>
    <message>
        <source>forged (wrong tag)</source>
        <translation>võltsitud (vale märgend)</translation>
    </message>
    <message>
        <source>replayed</source>
        <translation>korratud</translation>
    </message>
    <message>
        <source>unknown device</source>
        <translation>tundmatu seade</translation>
    </message>
    <message>
        <source>not allowed for its role</source>
        <translation>selle rollile keelatud</translation>
    </message>
    <message>
        <source>our ack, heard back</source>
        <translation>meie kinnitus, tagasi kuuldud</translation>
    </message>
    <message>
        <source>Gateway</source>
        <translation>Lüüs</translation>
    </message>
    <message>
        <source>Frames</source>
        <translation>Kaadrid</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Vastu võetud</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>Kordused</translation>
    </message>
    <message>
        <source>Corrupt</source>
        <translation>Rikutud</translation>
    </message>
    <message>
        <source>Forged</source>
        <translation>Võltsitud</translation>
    </message>
    <message>
        <source>Replayed</source>
        <translation>Korratud</translation>
    </message>
    <message>
        <source>Unknown device</source>
        <translation>Tundmatu seade</translation>
    </message>
    <message>
        <source>Wrong role</source>
        <translation>Vale roll</translation>
    </message>
    <message>
        <source>Acks heard</source>
        <translation>Kinnitusi kuuldud</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>just praegu</translation>
    </message>
    <message>
        <source>{0} s ago</source>
        <translation>{0} s tagasi</translation>
    </message>
    <message>
        <source>{0} min ago</source>
        <translation>{0} min tagasi</translation>
    </message>
    <message>
        <source>{0} h {1} min ago</source>
        <translation>{0} h {1} min tagasi</translation>
    </message>
    <message>
        <source>next attempt in {0} s</source>
        <translation>järgmine katse {0} s pärast</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>Ühendus</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Olek</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Üksikasi</translation>
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
        <source>Device</source>
        <translation>Seade</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Roll</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Silt</translation>
    </message>
    <message>
        <source>Marshal / group</source>
        <translation>Marssal / rühm</translation>
    </message>
    <message>
        <source>Board</source>
        <translation>Plaat</translation>
    </message>
    <message>
        <source>Provisioned</source>
        <translation>Seadistatud</translation>
    </message>
    <message>
        <source>Heard</source>
        <translation>Kuuldud</translation>
    </message>
    <message>
        <source>RSSI / SNR per gateway</source>
        <translation>RSSI / SNR lüüside kaupa</translation>
    </message>
    <message>
        <source>Meshtastic node {0}</source>
        <translation>Meshtasticu sõlm {0}</translation>
    </message>
    <message>
        <source>firmware {0}, key {1}</source>
        <translation>püsivara {0}, võti {1}</translation>
    </message>
    <message>
        <source>failed: {0}</source>
        <translation>ebaõnnestus: {0}</translation>
    </message>
    <message>
        <source>no: an older key ({0})</source>
        <translation>ei: vanem võti ({0})</translation>
    </message>
    <message>
        <source>yes, at {0}</source>
        <translation>jah, kell {0}</translation>
    </message>
    <message>
        <source>not yet</source>
        <translation>veel mitte</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Allikas</translation>
    </message>
    <message>
        <source>Last heard</source>
        <translation>Viimati kuuldud</translation>
    </message>
    <message>
        <source>RSSI (dBm)</source>
        <translation>RSSI (dBm)</translation>
    </message>
    <message>
        <source>SNR (dB)</source>
        <translation>SNR (dB)</translation>
    </message>
    <message>
        <source>Battery (%)</source>
        <translation>Aku (%)</translation>
    </message>
    <message>
        <source>Counter</source>
        <translation>Loendur</translation>
    </message>
    <message>
        <source>moved</source>
        <translation>liigutatud</translation>
    </message>
    <message>
        <source>firing</source>
        <translation>laskmas</translation>
    </message>
    <message>
        <source>damaged</source>
        <translation>kahjustatud</translation>
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
        <source>Engine</source>
        <translation>Masin</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Olek</translation>
    </message>
    <message>
        <source>Last report</source>
        <translation>Viimane teade</translation>
    </message>
    <message>
        <source>Latitude</source>
        <translation>Laius</translation>
    </message>
    <message>
        <source>Longitude</source>
        <translation>Pikkus</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Sündmus</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Üksikasjad</translation>
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
        <source>Dead now</source>
        <translation>Praegu surnud</translation>
    </message>
    <message>
        <source>In Valhalla</source>
        <translation>Valhallas</translation>
    </message>
    <message>
        <source>Deaths</source>
        <translation>Surmad</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>Liikmed</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>Praegu</translation>
    </message>
    <message>
        <source>Respawns in</source>
        <translation>Taassünd</translation>
    </message>
    <message>
        <source>alive again</source>
        <translation>jälle elus</translation>
    </message>
    <message>
        <source>in Valhalla</source>
        <translation>Valhallas</translation>
    </message>
    <message>
        <source>dead, not yet in Valhalla</source>
        <translation>surnud, pole veel Valhallas</translation>
    </message>
    <message>
        <source>held {0}</source>
        <translation>peatatud {0}</translation>
    </message>
    <message>
        <source>dies</source>
        <translation>sureb</translation>
    </message>
    <message>
        <source>wakes</source>
        <translation>ärkab</translation>
    </message>
    <message>
        <source>+1 HP</source>
        <translation>+1 elupunkt</translation>
    </message>
    <message>
        <source>respawns</source>
        <translation>taassünnib</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiivne</translation>
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
        <source>strike</source>
        <translation>löök</translation>
    </message>
    <message>
        <source>down (0 hit points)</source>
        <translation>maas (0 elupunkti)</translation>
    </message>
    <message>
        <source>wounds bound</source>
        <translation>haavad seotud</translation>
    </message>
    <message>
        <source>cared for by a healer</source>
        <translation>ravitseja hoole all</translation>
    </message>
    <message>
        <source>care ended</source>
        <translation>hoolitsus lõppes</translation>
    </message>
    <message>
        <source>strenuous activity</source>
        <translation>pingutav tegevus</translation>
    </message>
    <message>
        <source>bandage removed</source>
        <translation>side eemaldatud</translation>
    </message>
    <message>
        <source>healer&apos;s touch</source>
        <translation>ravipuudutus</translation>
    </message>
    <message>
        <source>died</source>
        <translation>suri</translation>
    </message>
    <message>
        <source>permanent kill</source>
        <translation>lõplik surm</translation>
    </message>
    <message>
        <source>checked in at Valhalla</source>
        <translation>registreeris Valhallas</translation>
    </message>
    <message>
        <source>respawned</source>
        <translation>taassündis</translation>
    </message>
    <message>
        <source>woke</source>
        <translation>ärkas</translation>
    </message>
    <message>
        <source>regained a hit point</source>
        <translation>sai elupunkti tagasi</translation>
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
        <source>STOPP called</source>
        <translation>STOPP kutsutud</translation>
    </message>
    <message>
        <source>STOPP lifted</source>
        <translation>STOPP lõpetatud</translation>
    </message>
    <message>
        <source>note</source>
        <translation>märkus</translation>
    </message>
    <message>
        <source>players added to the roster</source>
        <translation>mängijad lisati nimekirja</translation>
    </message>
    <message>
        <source>retracted</source>
        <translation>tagasi võetud</translation>
    </message>
    <message>
        <source>alarm acknowledged</source>
        <translation>häire kinnitatud</translation>
    </message>
    <message>
        <source>armour recorded</source>
        <translation>turvis salvestatud</translation>
    </message>
    <message>
        <source>weapon inspected</source>
        <translation>relv kontrollitud</translation>
    </message>
    <message>
        <source>hit points set</source>
        <translation>elupunktid määratud</translation>
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
        <translation>pearv</translation>
    </message>
    <message>
        <source>siege engine status</source>
        <translation>piiramismasina olek</translation>
    </message>
    <message>
        <source>message</source>
        <translation>sõnum</translation>
    </message>
    <message>
        <source>report needed radio retries</source>
        <translation>teade vajas raadios kordamist</translation>
    </message>
    <message>
        <source>looted</source>
        <translation>rüüstatud</translation>
    </message>
    <message>
        <source>returned</source>
        <translation>tagastatud</translation>
    </message>
    <message>
        <source>out-of-game unpleasant</source>
        <translation>mänguväliselt ebameeldiv</translation>
    </message>
    <message>
        <source>injury or medical</source>
        <translation>vigastus või meditsiiniline</translation>
    </message>
    <message>
        <source>danger</source>
        <translation>oht</translation>
    </message>
    <message>
        <source>TAK, not authenticated</source>
        <translation>TAK, autentimata</translation>
    </message>
    <message>
        <source>TAK uid</source>
        <translation>TAK uid</translation>
    </message>
    <message>
        <source>Callsign</source>
        <translation>Kutsung</translation>
    </message>
    <message>
        <source>Trust</source>
        <translation>Usaldus</translation>
    </message>
    <message>
        <source>Heard through</source>
        <translation>Kuuldud läbi</translation>
    </message>
</context>
<context>
    <name>privacy</name>
    <message>
        <source>The game file can be read by others</source>
        <translation>Mängufaili saavad lugeda teised</translation>
    </message>
    <message>
        <source>Other users of this computer can read {files}. It holds every radio device&apos;s key: anyone who reads it can send reports in a marshal&apos;s name.

Make it readable by you alone?</source>
        <translation>Selle arvuti teised kasutajad saavad lugeda faili {files}. Selles on iga raadioseadme võti: kes seda loeb, saab saata teateid marssali nimel.

Kas teha see loetavaks ainult sulle?</translation>
    </message>
    <message>
        <source>Make it private</source>
        <translation>Tee privaatseks</translation>
    </message>
    <message>
        <source>Leave it</source>
        <translation>Jäta nii</translation>
    </message>
    <message>
        <source>{path} could not be made private: {error}</source>
        <translation>Faili {path} ei saanud privaatseks teha: {error}</translation>
    </message>
    <message>
        <source>The game file</source>
        <translation>Mängufail</translation>
    </message>
</context>
<context>
    <name>replay</name>
    <message>
        <source>{side}: {active} up, {down} down, {dead} dead</source>
        <translation>{side}: {active} püsti, {down} maas, {dead} surnud</translation>
    </message>
</context>
</TS>
