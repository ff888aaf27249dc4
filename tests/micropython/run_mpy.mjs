#!/usr/bin/env node
// Run a Python script under the real MicroPython interpreter (WebAssembly
// port, npm package @micropython/micropython-webassembly-pyscript) in Node.js.
//
// Usage:
//   node tests/micropython/run_mpy.mjs SCRIPT [MODULE ...]
//
//   SCRIPT   path of the Python script to run as __main__, or "-" to read it
//            from stdin.
//   MODULE   .py files (or package directories, copied recursively) to put in
//            the interpreter's virtual filesystem under /lib, which is on
//            MicroPython's sys.path, so the script can `import nmea` etc.
//
// The script's stdout/stderr go to this process's stdout/stderr.
// Exit status: 0 = script finished, 1 = uncaught Python exception (traceback on
// stderr), N = SystemExit(N), 2 = usage error, 3 = interpreter not installed.
//
// The interpreter is looked up in hardware/node_modules (installed with
// `npm ci --prefix hardware`); set MICROPYTHON_MJS to the path of another
// micropython.mjs to override.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, "..", "..");
const PACKAGE = "@micropython/micropython-webassembly-pyscript";
const DEFAULT_MJS = path.join(REPO_ROOT, "hardware", "node_modules", ...PACKAGE.split("/"), "micropython.mjs");
const LIB_DIR = "/lib"; // on MicroPython's default sys.path ("", ".frozen", "/lib")

function usage(message) {
    process.stderr.write(`run_mpy: ${message}\nusage: node run_mpy.mjs SCRIPT|- [MODULE.py|PACKAGE_DIR ...]\n`);
    process.exit(2);
}

// Buffered writer: the interpreter hands out one byte per call.
function byteSink(stream) {
    let pending = [];
    const flush = () => {
        if (pending.length) {
            stream.write(Buffer.from(pending));
            pending = [];
        }
    };
    const put = (bytes) => {
        for (const b of bytes) {
            pending.push(b);
            if (b === 10 || pending.length >= 4096) flush();
        }
    };
    return { put, flush };
}

function copyIntoFs(FS, hostPath, fsDir) {
    const name = path.basename(hostPath);
    const stat = fs.statSync(hostPath);
    if (stat.isDirectory()) {
        if (name === "__pycache__") return;
        const target = `${fsDir}/${name}`;
        FS.mkdirTree(target);
        for (const entry of fs.readdirSync(hostPath)) {
            const child = path.join(hostPath, entry);
            if (fs.statSync(child).isDirectory() || entry.endsWith(".py")) copyIntoFs(FS, child, target);
        }
    } else {
        FS.writeFile(`${fsDir}/${name}`, fs.readFileSync(hostPath));
    }
}

// "Traceback ...\nSystemExit: 3\n" -> [exit status, message to print or ""]
function systemExitStatus(message) {
    const lines = message.trimEnd().split("\n");
    const arg = lines[lines.length - 1].replace(/^SystemExit:?\s?/, "");
    if (arg === "" || arg === "None") return [0, ""];
    if (/^-?\d+$/.test(arg)) return [Number(arg) & 0xff, ""];
    return [1, arg + "\n"];
}

async function main() {
    const args = process.argv.slice(2);
    if (args.length === 0) usage("missing SCRIPT");
    if (args[0].startsWith("--")) usage(`unknown option ${args[0]}`);
    const [scriptArg, ...modules] = args;

    const mjs = process.env.MICROPYTHON_MJS || DEFAULT_MJS;
    if (!fs.existsSync(mjs)) {
        process.stderr.write(
            `run_mpy: MicroPython interpreter not found at ${mjs}\n` +
            `run_mpy: install it with: npm ci --prefix ${path.join(REPO_ROOT, "hardware")}\n`,
        );
        process.exit(3);
    }

    let source, scriptName;
    try {
        if (scriptArg === "-") {
            source = fs.readFileSync(0, "utf8");
            scriptName = "<script>";
        } else {
            source = fs.readFileSync(scriptArg, "utf8");
            scriptName = path.basename(scriptArg);
        }
        for (const m of modules) fs.statSync(m);
    } catch (e) {
        usage(e.message);
    }

    const { loadMicroPython } = await import(pathToFileURL(mjs).href);
    const out = byteSink(process.stdout);
    const err = byteSink(process.stderr);
    const mp = await loadMicroPython({ stdout: out.put, stderr: err.put, linebuffer: false });

    mp.FS.mkdirTree(LIB_DIR);
    for (const m of modules) copyIntoFs(mp.FS, path.resolve(m), LIB_DIR);

    // Compile under the script's own name so tracebacks point into it.
    mp.FS.mkdirTree("/tmp");
    mp.FS.writeFile("/tmp/__run_mpy_main__.py", source);
    mp.globals.set("__run_mpy_name__", scriptName);
    const runner =
        "exec(compile(open('/tmp/__run_mpy_main__.py').read(), __run_mpy_name__, 'exec'))";

    let status = 0;
    try {
        mp.runPython(runner);
    } catch (e) {
        if (e.name !== "PythonError") throw e;
        let message = e.message;
        if (e.type === "SystemExit") {
            [status, message] = systemExitStatus(e.message);
        } else {
            status = 1;
        }
        out.flush();
        err.put(Buffer.from(message.replace(/  File "<stdin>", line 1, in <module>\n/, "")));
    }
    out.flush();
    err.flush();
    // Let Node drain the pipes instead of calling process.exit().
    process.exitCode = status;
}

main().catch((e) => {
    process.stderr.write(`run_mpy: internal error: ${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 3;
});
