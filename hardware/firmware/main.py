"""Starts the device in the role its provisioning file (device.json) names.

Hardware-facing.  marshal: keypad, screen, reports with retries, position
pings.  tracker: position pings.  gateway: LoRa <-> USB serial lines.  A
crash is printed on the serial console and the board restarts after 5 s;
the counter store (counter.py) makes sure no frame counter is reused.
"""

import sys
import time

import boards
import config
import hw
from counter import CounterStore, FileFlash

STEP_MS = 5


def run_gateway(cfg, board, i2c, clock):
    import select

    from gateway import Gateway

    def write(text):
        sys.stdout.write(text)

    gw = Gateway(cfg, hw.radio(board), write, clock.now())
    screen = hw.display(i2c)
    stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    shown = 0
    while True:
        while poller.poll(0):
            gw.feed(stdin.read(1))
        now = clock.now()
        gw.step(now)
        if now - shown >= 2000:
            shown = now
            screen.show_lines(["GW %d %s" % (gw.gateway, gw.radio.name), "rx %d tx %d" % (gw.rx, gw.tx),
                               "bad %d err %d" % (gw.radio.crc_errors, gw.txerr),
                               "%s %s SF%d" % (cfg["radio"]["region"], cfg["radio"]["freq"], cfg["radio"]["sf"])])
        time.sleep_ms(1)


def run_marshal(cfg, board, i2c, clock):
    from handset import Marshal
    m = Marshal(cfg, hw.radio(board), hw.display(i2c), hw.keys(board), CounterStore(FileFlash()),
                hw.gps(board), hw.battery(board, i2c), hw.rand, clock.now())
    while True:
        m.step(clock.now())
        time.sleep_ms(STEP_MS)


def run_tracker(cfg, board, i2c, clock):
    from tracker import Tracker
    t = Tracker(cfg, hw.radio(board), CounterStore(FileFlash()), hw.gps(board), hw.battery(board, i2c),
                hw.rand, clock.now())
    while True:
        t.step(clock.now())
        time.sleep_ms(50)


def main():
    try:
        cfg = config.load_file()
        board = boards.check_role(cfg["board"], cfg["role"])
    except (config.ConfigError, ValueError) as exc:
        print("controlroom: " + str(exc))
        return                          # stay in the REPL so the file can be fixed
    clock = hw.Clock()
    i2c = hw.power_on(board)
    run = {"gateway": run_gateway, "marshal": run_marshal, "tracker": run_tracker}[cfg["role"]]
    try:
        run(cfg, board, i2c, clock)
    except KeyboardInterrupt:
        raise                           # Ctrl-C from mpremote: back to the REPL
    except Exception as exc:
        sys.print_exception(exc)
        time.sleep_ms(5000)
        hw.reset()


main()
