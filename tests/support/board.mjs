#!/usr/bin/env node
// The interpreter of a fake board (tests/support/fake_board.py): the real MicroPython (its WebAssembly
// port) with the board's flash as a folder of the host.
//
// Usage: node board.mjs FLASH_DIR LIB_DIR
//
// FLASH_DIR is the board's flash: its files are loaded into the interpreter's /flash (the current folder
// of the code it runs) when it starts, and every change is written back to FLASH_DIR after each request,
// so that what a request completed is on the "flash" even if the board is killed (a cable pulled) during
// the next one.  LIB_DIR's .py files go into /lib (MicroPython's own path): the board's stand-ins.
//
// Requests come on stdin, one JSON object a line; each gets one JSON line on stdout:
//   {"op": "exec", "code": BASE64}  -> {"out": BASE64, "err": BASE64, "reset": bool}
//       runs the code in the interpreter's __main__ (its globals stay between requests, as on a board);
//       "err" is the traceback of an exception; "reset" says the code called machine.reset().
//   {"op": "restart"}               -> {"ok": true}   a fresh interpreter (a soft or a hard reset)
// The interpreter's own output during a request goes into "out" / "err", never straight to stdout.

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, "..", "..");
const PACKAGE = "@micropython/micropython-webassembly-pyscript";
const MJS = process.env.MICROPYTHON_MJS ||
    path.join(REPO_ROOT, "hardware", "node_modules", ...PACKAGE.split("/"), "micropython.mjs");

const [flashDir, libDir] = process.argv.slice(2);
if (!flashDir || !libDir) {
    process.stderr.write("usage: node board.mjs FLASH_DIR LIB_DIR\n");
    process.exit(2);
}
const { loadMicroPython } = await import(pathToFileURL(MJS).href);

let out = [];
let err = [];
let mp = null;
let synced = new Map();          // flash file name -> its content as last written to FLASH_DIR

function hostFiles() {
    const files = new Map();
    for (const name of fs.readdirSync(flashDir)) {
        const full = path.join(flashDir, name);
        if (fs.statSync(full).isFile()) files.set(name, fs.readFileSync(full));
    }
    return files;
}

async function start() {
    mp = await loadMicroPython({
        stdout: (b) => out.push(...b), stderr: (b) => err.push(...b), linebuffer: false, heapsize: 4 * 1024 * 1024,
    });
    mp.FS.mkdirTree("/flash");
    mp.FS.mkdirTree("/lib");
    for (const name of fs.readdirSync(libDir)) {
        if (name.endsWith(".py")) mp.FS.writeFile(`/lib/${name}`, fs.readFileSync(path.join(libDir, name)));
    }
    synced = hostFiles();
    for (const [name, data] of synced) mp.FS.writeFile(`/flash/${name}`, data);
    mp.runPython("import os\nos.chdir('/flash')");
}

function sync() {
    const now = new Map();
    for (const name of mp.FS.readdir("/flash")) {
        if (name === "." || name === "..") continue;
        const stat = mp.FS.stat(`/flash/${name}`);
        if (mp.FS.isFile(stat.mode)) now.set(name, Buffer.from(mp.FS.readFile(`/flash/${name}`)));
    }
    for (const [name, data] of now) {
        const before = synced.get(name);
        if (before === undefined || !before.equals(data)) {
            const tmp = path.join(flashDir, `.${name}.sync`);
            fs.writeFileSync(tmp, data);
            fs.renameSync(tmp, path.join(flashDir, name));       // the host's copy is whole, never half written
        }
    }
    for (const name of synced.keys()) {
        if (!now.has(name)) fs.rmSync(path.join(flashDir, name), { force: true });
    }
    synced = now;
}

function run(code) {
    out = [];
    err = [];
    let reset = false;
    try {
        mp.runPython(code);
    } catch (e) {
        if (e.name !== "PythonError") throw e;
        if (e.type === "BoardReset") reset = true;
        else err.push(...Buffer.from(e.message));
    }
    sync();
    return { out: Buffer.from(out).toString("base64"), err: Buffer.from(err).toString("base64"), reset };
}

await start();
process.stdout.write(JSON.stringify({ ready: true }) + "\n");
const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
    const request = JSON.parse(line);
    let answer;
    if (request.op === "exec") {
        answer = run(Buffer.from(request.code, "base64").toString("utf8"));
    } else if (request.op === "restart") {
        await start();
        answer = { ok: true };
    } else {
        answer = { error: `unknown op ${request.op}` };
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
}
