"""Write resources/demo/roster.csv: the demo roster of ``controlroom demo``.

About 300 players in 12 groups on 3 sides, in the format of
docs/roster-csv.md.  Deterministic (a fixed random seed): run it again and
the file comes out byte for byte the same.  Run once by developers; the
output is committed:

    .venv/bin/python resources/demo/make_roster.py
"""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "roster.csv"
SEED = 20110831                      # the seed ruleset's date

# side -> [(group, size, first badge)]; badges are numbered per group (101.., 201.., ...)
SIDES = {
    "Northmen": [("Wolves of Võru", 28, 101), ("Iron Oath", 24, 201),
                 ("Saare Shieldwall", 26, 301), ("Hundikoer", 22, 401)],
    "Ravens": [("Black Feathers", 27, 501), ("Rongad", 25, 601),
               ("Hollow Crown", 23, 701), ("Night Ferry", 24, 801)],
    "Free Cities": [("Tartu Guild", 26, 901), ("Salt Road Company", 25, 1001),
                    ("Lion of Pärnu", 24, 1101), ("Ember Lanterns", 26, 1201)],
}

FIRST = [
    "Õie", "Jürgen", "Ülle", "Märt", "Kadri", "Kristjan", "Mari", "Tõnu", "Ants", "Liis",
    "Jaan", "Kärt", "Priit", "Siim", "Epp", "Rein", "Tiiu", "Madis", "Helve", "Ööbik",
    "Toomas", "Maarja", "Urmas", "Külli", "Andres", "Triin", "Peeter", "Ülo", "Merike", "Tõiv",
    "Sigrid", "Ragnar", "Halvard", "Eirik", "Freya", "Solveig", "Torvald", "Brynja", "Ingvar", "Ylva",
    "Hakon", "Ase", "Rurik", "Thyra", "Sten", "Gudrun", "Arvid", "Runa", "Bjarki", "Hild",
]
LAST = [
    "Tamm", "Kask", "Saar", "Põld", "Laur", "Roos", "Mägi", "Sepp", "Lepik", "Kuusk",
    "Rebane", "Ilves", "Kõiv", "Pärn", "Oja", "Järv", "Lõhmus", "Vaher", "Kivi", "Müür",
    "Raudsepp", "Tuisk", "Sõrmus", "Külv", "Hunt",
]
EPITHETS = [
    "the Red", "Ironhand", "Ravenborn", "Stormcaller", "the Quiet", "Half-Troll",
    "Kõrvetaja", "Ashenfell", "Oakheart", "the Ferryman", "Longstride", "Saltbeard",
    "Wolfsbane", "Ülemjõe", "Thornwise", "the Lame", "Bright-Eyes", "Mõõgamees",
]
HELMETS = ["", "leather", "metal", "metal"]
ARMOURS = [
    "", "leather", "hardened_leather", "chain", "chain_on_gambeson", "plate", "brigandine",
    "leather+chain", "chain+plate", "hardened_leather+brigandine", "chain_on_gambeson+plate",
]


def name(rng: random.Random, used: set[str]) -> str:
    while True:
        roll = rng.random()
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if roll < 0.6:
            full = f"{first} {last}"
        elif roll < 0.85:
            full = f"{first} {rng.choice(EPITHETS)}"
        else:
            full = f"{first} {last} {rng.choice(EPITHETS)}"
        if full not in used:
            used.add(full)
            return full


def rows(rng: random.Random) -> list[list[str]]:
    out: list[list[str]] = []
    used: set[str] = set()
    for side, groups in SIDES.items():
        for group, size, first_badge in groups:
            paid = [rng.random() > 0.08 for _ in range(size)]
            # one healer per five paid members at most (members_per_healer = 5): use one fewer
            # than allowed, at least one, and only on paid players so the limit always holds
            allowed = sum(paid) // 5
            healers = max(1, allowed - 1) if allowed else 0
            paid_idx = [i for i, p in enumerate(paid) if p]
            healer_idx = set(rng.sample(paid_idx, healers))
            for i in range(size):
                healer = i in healer_idx
                helmet = "" if healer and rng.random() < 0.5 else rng.choice(HELMETS)
                armour = rng.choice(ARMOURS[:3]) if healer else rng.choice(ARMOURS)
                out.append([
                    str(first_badge + i), name(rng, used), side, group,
                    "healer" if healer else "warrior", "yes" if paid[i] else "no",
                    helmet, armour,
                ])
    return out


def main() -> None:
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(["badge", "name", "side", "group", "class", "paid", "helmet", "armour"])
    writer.writerows(rows(random.Random(SEED)))
    OUT.write_bytes(("\ufeff" + buf.getvalue()).encode("utf-8"))
    print(f"wrote {OUT} ({buf.getvalue().count(chr(10)) - 1} players)")


if __name__ == "__main__":
    main()
