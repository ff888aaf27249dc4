<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="et_EE">
<context>
    <name>AlarmBanner</name>
    <message numerus="yes">
        <source>+%n more</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AlarmRow</name>
    <message>
        <source>Acknowledge</source>
        <extracomment>Background and text colour of each class (every pair reads at 4.5:1 or better). A safety row flashing, its dark phase.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{kind} at {time}: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{text} (×{count})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ArmourForm</name>
    <message>
        <source> mm wire</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> mm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Appendix 2: the thickness of the material (of the wire, for chain)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no helmet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} ({1} AP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Helmet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Armour worn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inadequate material or no real protection (at most {0} AP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from the costume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Game master&apos;s points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Armour points: {total} (body {body} + helmet {helmet})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inadequate material (Appendix 2): at most {0} armour points.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The material meets Appendix 2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Measure the material of what is worn (Appendix 2):</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ClockBar</name>
    <message>
        <source>Game {game}   Wall {wall}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{scenario}: running {running}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{scenario}: ended after {running}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CorrectionDialog</name>
    <message>
        <source>Correct this report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{time}  {what}  {who}  {details}  (from {source})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>why it is wrong, e.g. the marshal gave the wrong badge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace it with a corrected report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>badge number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What happened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Badge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take it back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Say why the report is wrong: the reason goes into the record and the report.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{0}” is not a badge number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The corrected report is not complete: {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CountModel</name>
    <message>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Security alarm: frames with a wrong authentication tag (forged?) were received.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CrsDialog</name>
    <message>
        <source>Coordinate system of {name}</source>
        <extracomment>The file dialog&apos;s filter for maps.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is placed by {placed}, but nothing says which coordinate system its numbers are in (no .prj or .aux.xml beside it). Choose the one the map was made in; a wrong one puts everything in the wrong place.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its numbers are small, like metres around a point, as earlier versions of controlroom wrote them. Cancel, and place the image again by clicking three points.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>centre at {lat:.4f}, {lon:.4f}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, {km:.1f} km from the field&apos;s positions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>or type an EPSG code (3301, EPSG:32635) or paste WKT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its numbers fit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>that</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{crs}: the map&apos;s centre would be at {lat:.5f}, {lon:.5f}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{crs} cannot place this map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chosen by the game master</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DeadlineModel</name>
    <message>
        <source>Held: a STOPP covers this character; the time stands still until it is lifted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DeadlinePanel</name>
    <message>
        <source>Dying and waking</source>
        <extracomment>The columns always shown whole (countdown, what, who); group and side only when there is room. The panel scrolls its own rows: the window puts it in a dock as it is, with the room it needs.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} dying ({1} within 2 minutes), {2} held by a STOPP</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DeskSwitch</name>
    <message>
        <source>&amp;Control room (map)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Valhalla desk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Weapon-check desk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Desk</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DeviceModel</name>
    <message>
        <source>at {0}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole game</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario: {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF for the organisers (A4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files for spreadsheets (casualties, players, STOPPs)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder for the report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose PDF, CSV or both.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the game…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the PDF: page {page} of {pages}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Laying out the PDF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report could not be written: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report is written:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FindDialog</name>
    <message>
        <source>Find a player or a group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>badge, name or group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No badge, player or group “{0}” in this game.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} match: {1}. Pick one of the suggestions.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GameControls</name>
    <message>
        <source>Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name of the scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Respawn the dead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rules&apos; default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STOPP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STOPP for everyone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ruled trivial</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A STOPP ruled trivial: the caller falls unconscious.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the caller falls unconscious)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lift STOPP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active STOPP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report by voice radio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>badge number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valid strikes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not reported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seconds counted aloud</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What happened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Badge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The carer stays within 1 m of the wounded, wears no weapons and does nothing else; the wounded lies still, tended and bound. The carer must be conscious.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>A healer cares for at most %n at a time.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>A bandage (a white strip of cloth at least 5 cm wide and 50 cm long) on the wound; whoever binds must be conscious.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The healer&apos;s hands are free and pressed on the target; the healer must be conscious.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hacking the body for at least {0} s, counted aloud; the killer must be conscious. A shorter count is recorded as a rule warning.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} (called by badge {1})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the scenario a name first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not started: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting “{0}”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End the scenario? Every running timer (dying, waking, respawn) stops.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ending the scenario.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent: {0}, badge {1}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counted {0} s, less than the rules&apos; {1} s: the kill is recorded as a rule warning, not a death.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the badge number of the player</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter {0}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{0}” is not a badge number: enter {1} as a whole number, like 42.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GeorefDialog</name>
    <message>
        <source>Place map image: {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latitude</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longitude</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error (m)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a spot on the image you can find on the ground, then type its latitude and longitude in decimal degrees (e.g. 58.3781, 26.7290). Three points are needed; more are fitted by least squares, and each point&apos;s error shows which one was clicked or typed wrong.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Point {n}: latitude and longitude must be numbers in decimal degrees, like 58.3781 and 26.7290.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Point {n}: latitude must be between -90 and 90 and longitude between -180 and 180 (check they are not swapped).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} of 3 points have coordinates: add {more} more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The points lie on (or close to) one line, so the image cannot be placed. Pick points spread out in a wide triangle.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit error: needs 3 points with coordinates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit error: 0 m (3 points fit exactly; add a 4th to check them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit error: {rms:.1f} m RMS over {n} points; point {worst} is furthest off ({most:.1f} m)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save the placement: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GisExportDialog</name>
    <message>
        <source>Export for GIS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GeoJSON (QGIS)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KML (Google Earth)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPX (GPS tools)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole game</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario: {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tracks of every group, marshal and siege engine; casualties where their marshal or their group was; STOPPs; siege engine reports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the game…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file could not be written: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Written {path}: {tracks} tracks, {casualties} casualties, {stopps} STOPPs, {siege} siege engine reports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} events had no position to put them at.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InspectionForm</name>
    <message>
        <source>Cannot judge these measurements: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the measurements: the verdict follows each one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PASSES Appendix 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>FAILS Appendix 1 on %n criteria:</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>controlroom</source>
        <extracomment>The version of the docks&apos; layout saved in the settings: a layout saved by an older window is not restored. The window&apos;s size on a screen large enough for it (smaller screens: the whole screen). The window&apos;s size drawn without a screen (the offscreen platform: screenshots, tests). Below this screen height the docks share one column beside the map (a laptop) ... ... and also when the side panels would leave the map less than this share of the width (large text).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening the game…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{side}: {active} up, {down} down, {dead} dead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} ({badge}, {group}) died</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to undo: no entry of yours is waiting.</source>
        <extracomment>Ctrl+Z undoes the game master&apos;s last entry only this long after it (seconds).</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to undo: your last entry is more than a minute old (right-click it in Events, Correct this report…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>undone by the game master (Ctrl+Z)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your last entry is taken back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report is taken back: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0}: no position known yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map of the field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Maps ({patterns})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The map cannot be shown: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The map {name} is kept with the game.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The map is shown, but it could not be kept with the game: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The game&apos;s map could not be opened: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Game</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open game…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export for &amp;GIS (GeoJSON, GPX, KML)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;play…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo my last entry (within a minute)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find a player or group…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Legend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Place a map (image, GeoTIFF, MBTiles)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Night mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dim the map at night</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{percent} % darker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Large text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;log folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alarms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dying and waking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Controls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valhalla</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Siege</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Radio</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MapLayers</name>
    <message>
        <source>where reported</source>
        <extracomment>A marshal&apos;s own position stands for a casualty&apos;s when heard this recently before the report.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at the reporting marshal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>badge {badge}: {state} ({how})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>badge {badge}: {state} (near group {group}, no position reported)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MapLegend</name>
    <message>
        <source>marshal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tracker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>siege engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STOPP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>down</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valhalla</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group: name up↑ down↓ dead†</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MapView</name>
    <message>
        <source>East</source>
        <extracomment>The largest map image shown whole (MB of pixels, 4 bytes each); larger maps belong in MBTiles. Layer names in drawing order, bottom first. How dark night mode makes the map (the overlay&apos;s opacity), and the levels offered in View. The night overlay&apos;s half-size in metres: more than any field. Group labels hide when the map shows more metres per screen pixel than this (zoomed far out). Default repaint rate (guide: 5 to 10 Hz, independent of the data rate). A marker was clicked: (layer name, index into the arrays last given to set_layer). The drawing frame (metres around the field&apos;s centre); set by the map, or by the first positions.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>North</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Groups</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marshals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trackers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Siege engines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STOPP incidents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valhalla</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Casualties</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Movement trails</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit to field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the whole field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{layer}: {x:.0f} m E, {y:.0f} m N</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PlayerCard</name>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correct this report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} (badge {badge})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} · badge {badge}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cared for by {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in Valhalla</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{side} / {group} · {cls}
State: {condition}{extra}
Hit points {hp} of {max_hp} · armour points {ap} of {max_ap} · {deaths} deaths</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retracted: a wrong report, left out of the game.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reported by: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nobody yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (held by a STOPP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deadlines: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RadioPanel</name>
    <message>
        <source>Radio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter frames (device, verdict, detail...)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gateway links</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frames per gateway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Devices heard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frame log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Security alarm: {0} forged frame(s) received</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplayWindow</name>
    <message>
        <source>Replay (read-only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the game…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{speed}×</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Playback speed: game time per real time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The moment shown (drag to any time of the game)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the step buttons step to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dying and waking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valhalla</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the map as &amp;PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the battle as &amp;video (MP4 or GIF)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole game</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} ({start} to {end})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>death</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STOPP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{events} events read in {seconds:.1f} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The game could not be read: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The game&apos;s map could not be opened: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{time}   {scenario}   (found in {seek:.0f} ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No {kind} after {time}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No {kind} before {time}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the map as PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The map could not be saved: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The map at {time} is saved as {path}.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SideSummaryBar</name>
    <message>
        <source>{side}: {active} active · {unconscious} unconscious · {knocked_out} knocked out · {dead} dead</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SiegeModel</name>
    <message>
        <source>No position reported</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SiegePanel</name>
    <message>
        <source>Siege engines</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelineModel</name>
    <message>
        <source>Retracted: a wrong report, left out of the game.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <source>Filter: a name, a badge, an event, a source...</source>
        <extracomment>Rows always shown: the window never makes the panel smaller than this. The panel scrolls its own rows: the window puts it in a dock as it is.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Correct this report…</source>
        <extracomment>Below this width the Source column is left out: the details need the room more.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Player card</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TimerOwnerLabel</name>
    <message>
        <source>Timers: this station</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This laptop runs the game&apos;s rule timers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This station runs the rule timers for every station of the game.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timers: another station</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another station runs the rule timers; this one takes over if it disappears.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timers: server unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database server cannot be reached: reports are kept on this laptop, and the timers wait until the server is back.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ValhallaDesk</name>
    <message>
        <source>Valhalla desk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Badge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>badge number, then Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the badge number of a dead player and press Enter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The dead and their respawn countdowns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This desk&apos;s check-ins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{0}” is not a badge number: type it as a whole number, like 42.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No player has badge {0} in this game&apos;s roster.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The game is still opening: try again in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking in {0}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checked in: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Respawns in {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} checked in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} is not dead ({1}): only the dead check in at Valhalla.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} has already checked in at Valhalla.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>REFUSED: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} (badge {1})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No respawn countdowns: respawn is off in this scenario, or nobody is waiting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{side}
{valhalla} in Valhalla · {dead} dead · {deaths} deaths</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ValhallaPanel</name>
    <message>
        <source>Dead by group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The fallen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{side}
{dead} dead · {valhalla} in Valhalla · {deaths} deaths</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VideoDialog</name>
    <message>
        <source>Export the battle as video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File (.mp4 or .gif):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>× game time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frames a second:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From and to are game times, HH:MM:SS, the first before the second.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{frames} frames, {seconds:.0f} s of video</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Videos (*.mp4 *.gif)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The video cannot be made: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The battle is saved as {path}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The video was not made: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WeaponDesk</name>
    <message>
        <source>Weapon-check desk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Badge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>badge number, then Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the badge number of the player whose kit is checked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inspections recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Appendix 1: weapon inspection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tag number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the number on the tag tied to it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record inspection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Appendix 2: armour points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Record armour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The game&apos;s ruleset has no usable Appendix 1: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Armour points {0} of {1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed tags: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No player has badge “{0}” in this game&apos;s roster.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the player (badge) and enter the tag number first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not recorded: {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recorded tag {tag} for {name}: {outcome}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the player (badge) first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recorded armour for {name}: {total} armour points.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <source>Open or start a game</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>controlroom games (*{suffix})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>desks</name>
    <message>
        <source>{name} (badge {badge}) · {side} / {group} · {cls} · {condition} · {deaths} deaths</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>map</name>
    <message>
        <source>Map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The map cannot be used: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>panels</name>
    <message>
        <source>melee weapon or javelin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bow or crossbow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>arrow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>big stone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shield</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>siege engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>siege-engine arrow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Length (cm, handle included)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Former (core)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Former width (mm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Padding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Covering</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Padding on the striking surface (mm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Padding on the tip (mm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Has a stopper</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Short spear or javelin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used for thrusting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight (g)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pulling strength (kg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wholly covered with padding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fletching</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tip width (mm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shaft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shaft width (mm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size (cm, at its thinnest)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width (cm, at its widest)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edge covered with padding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sharp or protruding details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base material</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used for bashing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrowhead width (cm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Padding over the tip (cm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shaft fully padded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed criteria</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} ({badge})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FAILED</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STOPP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Injury</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Death</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STOPP lasts too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Late report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forged radio frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replayed radio frame</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown radio device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gateway lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Marshal silent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Storage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SAFETY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STORAGE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RADIO SECURITY</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LINK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledge all game</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledge all radio security</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledge all link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bound by (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the badge number of who bound the wounds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Healer caring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the badge number of the healer caring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Healer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the badge number of the healer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Killed by (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the badge number of the killer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Please confirm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Countdown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connecting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>identifying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>identified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unidentified</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>duplicate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>corrupt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forged (wrong tag)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replayed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not allowed for its role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gateway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corrupt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replayed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrong role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>just now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} s ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} min ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{0} h {1} min ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>next attempt in {0} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last heard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RSSI (dBm)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SNR (dB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Battery (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>moved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>firing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>damaged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>destroyed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>captured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latitude</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longitude</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In Valhalla</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deaths</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Members</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Respawns in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alive again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in Valhalla</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dead, not yet in Valhalla</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>held {0}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wakes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>regains a hit point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>respawns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unconscious</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>knocked out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>strike</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>down (0 hit points)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wounds bound</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cared for by a healer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>care ended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>strenuous activity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bandage removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>healer&apos;s touch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>died</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>permanent kill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checked in at Valhalla</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>respawned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>woke</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>regained a hit point</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scenario started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scenario ended</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STOPP called</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>STOPP lifted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retracted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alarm acknowledged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>armour recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weapon inspected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out-of-game unpleasant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>injury or medical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>danger</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>replay</name>
    <message>
        <source>{side}: {active} up, {down} down, {dead} dead</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
