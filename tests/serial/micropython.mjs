// Runs a script in MicroPython's WebAssembly port (npm @micropython/micropython-webassembly-pyscript)
// with files put in its filesystem: node micropython.mjs MODULE '[["name","path"],...]' SCRIPT
const [moduleUrl, files, script] = process.argv.slice(2);
const { loadMicroPython } = await import(moduleUrl);
const fs = await import("fs");
const mp = await loadMicroPython({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  linebuffer: false,
});
for (const [name, path] of JSON.parse(files)) mp.FS.writeFile("/" + name, fs.readFileSync(path));
try {
  mp.runPython(fs.readFileSync(script, "utf8"));
} catch (error) {
  process.stderr.write(String(error.message) + "\n");
  process.exit(1);
}
