//! The executable's and the server's `main` (`runtime/main.h`,
//! `runtime/server.h`, both over `runtime/options.h`) on a hand-written
//! fake of the generated API
//! (`tests/server_fixture.c`): every server command, its failures and that
//! the session goes on intact after them, text and binary values, the
//! executable's options, errors and exit codes. Each scenario also runs
//! under AddressSanitizer/UBSan when available (leaks included), and the
//! fixture's count of live API objects must be 0 at exit. Skipped (with a
//! note) when no `cc` is on PATH.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};
use std::sync::OnceLock;

const FLAGS: &[&str] = &["-std=c99", "-O1", "-Wall", "-Wextra"];
const SAN_FLAGS: &[&str] = &[
    "-g",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
];

/// The two executables of one build.
struct Build {
    main: PathBuf,
    server: PathBuf,
}

fn have_cc() -> bool {
    let ok = Command::new("cc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("note: no `cc` on PATH; server/executable C test skipped");
    }
    ok
}

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn work_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("server-c");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles the fixture as executable or server; `None` when the
/// sanitizer flags are unsupported here. Warnings in options.h,
/// main.h, server.h or the fixture fail the test.
fn compile(name: &str, server: bool, extra: &[&str]) -> Option<PathBuf> {
    let runtime = crate_dir().join("src/runtime");
    let exe = work_dir().join(name);
    let mut cmd = Command::new("cc");
    cmd.args(FLAGS).args(extra);
    if runtime.join("values.h").exists() {
        cmd.arg("-DPARAD_HAVE_VALUES_H");
    }
    if server {
        cmd.arg("-DFX_SERVER");
    }
    let out = cmd
        .arg("-I")
        .arg(&runtime)
        .arg(crate_dir().join("tests/server_fixture.c"))
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        if extra.iter().any(|f| f.starts_with("-fsanitize")) {
            eprintln!(
                "note: `cc {}` unavailable; skipped:\n{err}",
                extra.join(" ")
            );
            return None;
        }
        panic!("compiling the fixture ({name}) failed:\n{err}");
    }
    let ours: Vec<&str> = err
        .lines()
        .filter(|l| {
            l.contains("warning:")
                && ["options.h:", "main.h:", "server.h:", "server_fixture.c:"]
                    .iter()
                    .any(|f| l.contains(f))
        })
        .collect();
    assert!(
        ours.is_empty(),
        "warnings compiling {name}:\n{}",
        ours.join("\n")
    );
    Some(exe)
}

/// The plain build, and the sanitizer build when it works here.
fn builds() -> &'static [Build] {
    static BUILDS: OnceLock<Vec<Build>> = OnceLock::new();
    BUILDS.get_or_init(|| {
        let mut v = vec![Build {
            main: compile("fx_main", false, &[]).unwrap(),
            server: compile("fx_server", true, &[]).unwrap(),
        }];
        if let (Some(main), Some(server)) = (
            compile("fx_main_san", false, SAN_FLAGS),
            compile("fx_server_san", true, SAN_FLAGS),
        ) {
            // The sanitizer runtime may be installed but unusable (e.g.
            // under ptrace); use it only if a trivial run succeeds.
            let probe = Command::new(&main).arg("--print-params").output().unwrap();
            if probe.status.success() {
                v.push(Build { main, server });
            } else {
                eprintln!("note: sanitizer build does not run here; skipped");
            }
        }
        v
    })
}

/// A scratch file path (each test uses its own names).
fn scratch(name: &str) -> PathBuf {
    work_dir().join(name)
}

/// The build for the multicore backend (no sanitizers).
fn multicore() -> &'static Build {
    static BUILD: OnceLock<Build> = OnceLock::new();
    BUILD.get_or_init(|| Build {
        main: compile("fx_main_mc", false, &["-DFX_MULTICORE"]).unwrap(),
        server: compile("fx_server_mc", true, &["-DFX_MULTICORE"]).unwrap(),
    })
}

// ---- binary values ----

/// Futhark's binary format of a value (`ty` is the 4-byte type name).
fn bin(ty: &str, shape: &[i64], data: &[u8]) -> Vec<u8> {
    assert_eq!(ty.len(), 4);
    let mut v = vec![b'b', 2, shape.len() as u8];
    v.extend_from_slice(ty.as_bytes());
    for d in shape {
        v.extend_from_slice(&d.to_le_bytes());
    }
    v.extend_from_slice(data);
    v
}

fn i32s(xs: &[i32]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn f64s(xs: &[f64]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

// ---- driving the server ----

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(exe: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(exe)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Server {
            child,
            stdin,
            stdout,
        };
        assert_eq!(s.response(), Ok(vec![]), "start-up");
        s
    }

    /// Reads one response as the Python client does: the lines before
    /// `%%% OK`, or the message lines after `%%% FAILURE`.
    fn response(&mut self) -> Result<Vec<String>, String> {
        let mut lines = vec![];
        loop {
            let mut l = String::new();
            if self.stdout.read_line(&mut l).unwrap() == 0 {
                panic!("unexpected EOF from the server; lines so far: {lines:?}");
            }
            assert!(l.ends_with('\n'), "unterminated line {l:?}");
            l.pop();
            if l == "%%% OK" {
                return Ok(lines);
            }
            if l == "%%% FAILURE" {
                return Err(self.response().expect("nested failure").join("\n"));
            }
            lines.push(l);
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn cmd(&mut self, line: &str) -> Result<Vec<String>, String> {
        self.send(line);
        self.response()
    }

    /// Runs a command that must succeed; its output lines.
    fn ok(&mut self, line: &str) -> Vec<String> {
        match self.cmd(line) {
            Ok(v) => v,
            Err(e) => panic!("`{line}` failed: {e}"),
        }
    }

    /// Runs a command that must fail; its message.
    fn fail(&mut self, line: &str) -> String {
        match self.cmd(line) {
            Ok(v) => panic!("`{line}` succeeded with {v:?}"),
            Err(e) => e,
        }
    }

    /// Runs a command that must fail with a message containing `part`.
    fn fail_with(&mut self, line: &str, part: &str) {
        let e = self.fail(line);
        assert!(e.contains(part), "`{line}`: expected {part:?} in {e:?}");
    }

    /// Closes stdin; the server must exit 0 with no live objects left.
    fn finish(mut self) {
        drop(self.stdin.take());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stdout, &mut rest).unwrap();
        assert_eq!(rest, "", "output after the end of input");
        let out = self.child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "server exit {:?}: {err}", out.status);
        assert!(
            err.contains("fixture: 0 live objects"),
            "objects left at exit: {err}"
        );
    }
}

/// Runs `f` on a fresh server of each build.
fn each_server(args: &[&str], f: impl Fn(&mut Server)) {
    if !have_cc() {
        return;
    }
    for b in builds() {
        let mut s = Server::start(&b.server, args);
        f(&mut s);
        s.finish();
    }
}

fn lines(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn server_queries() {
    each_server(&[], |s| {
        assert_eq!(
            s.ok("types"),
            lines(&[
                "i32",
                "i64",
                "f64",
                "[]i32",
                "[]f64",
                "[][]f64",
                "(i32, []f64)",
                "(i32, f64)",
                "[](i32, f64)",
                "opt",
                "state"
            ])
        );
        assert_eq!(s.ok("entry_points")[..3], lines(&["main", "sum2d", "fail"]));
        assert_eq!(s.ok("inputs main"), lines(&["[]i32", "f64"]));
        assert_eq!(s.ok("inputs consume"), lines(&["*[]i32"]));
        assert_eq!(s.ok("output main"), lines(&["*(i32, []f64)"]));
        for (t, k) in [
            ("i32", "primitive"),
            ("u8", "primitive"),
            ("[][]f64", "array"),
            ("\"(i32, []f64)\"", "record"),
            ("\"[](i32, f64)\"", "array"),
            ("opt", "sum"),
            ("state", "opaque"),
        ] {
            assert_eq!(s.ok(&format!("kind {t}")), lines(&[k]), "kind {t}");
        }
        s.fail_with("kind nope", "Unknown type: nope");
        assert_eq!(
            s.ok("fields \"(i32, []f64)\""),
            lines(&["0 i32", "1 []f64"])
        );
        assert_eq!(
            s.ok("fields \"[](i32, f64)\""),
            lines(&["0 []i32", "1 []f64"])
        );
        s.fail_with("fields opt", "Not a record type");
        assert_eq!(s.ok("variants opt"), lines(&["none", "some", "- i32"]));
        s.fail_with("variants state", "Not a sum type");
        assert_eq!(s.ok("rank [][]f64"), lines(&["2"]));
        assert_eq!(s.ok("rank \"[](i32, f64)\""), lines(&["1"]));
        s.fail_with("rank i32", "Not an array type");
        assert_eq!(s.ok("elemtype [][]f64"), lines(&["f64"]));
        assert_eq!(s.ok("elemtype \"[](i32, f64)\""), lines(&["(i32, f64)"]));
        s.fail_with("elemtype opt", "Not an array type");
        assert_eq!(s.ok("attributes main"), lines(&["fake_attr", "another(1)"]));
        assert_eq!(s.ok("attributes sum2d"), lines(&[]));
        assert_eq!(
            s.ok("tuning_params main"),
            lines(&["main.threshold threshold", "main.tile tile_size"])
        );
        assert_eq!(s.ok("tuning_param_class main.tile"), lines(&["tile_size"]));
        s.fail_with("tuning_param_class nope", "Unknown tuning parameter: nope");
        for cmd in ["inputs", "output", "attributes", "tuning_params"] {
            s.fail_with(&format!("{cmd} nope"), "Unknown entry point: nope");
        }
    });
}

#[test]
fn server_values() {
    let text = scratch("values.txt");
    let binf = scratch("values.bin");
    let out = scratch("values.out");
    std::fs::write(&text, "7  [1, 2, 3]\n [[1.0, 2.5], [3.0, 4.0]]  ").unwrap();
    let mut b = bin(" i32", &[2], &i32s(&[5, 6]));
    b.extend(b"\n");
    b.extend(bin(" f64", &[], &f64s(&[0.25])));
    std::fs::write(&binf, &b).unwrap();
    each_server(&[], |s| {
        let t = text.display();
        s.ok(&format!("restore {t} x i32 xs []i32 m [][]f64"));
        assert_eq!(s.ok("type xs"), lines(&["[]i32"]));
        assert_eq!(s.ok("shape m"), lines(&["2", "2"]));
        s.ok(&format!("store {} x xs m", out.display()));
        let mut want = bin(" i32", &[], &i32s(&[7]));
        want.extend(bin(" i32", &[3], &i32s(&[1, 2, 3])));
        want.extend(bin(" f64", &[2, 2], &f64s(&[1.0, 2.5, 3.0, 4.0])));
        assert_eq!(std::fs::read(&out).unwrap(), want);

        s.ok(&format!("restore {} ys []i32 d f64", binf.display()));
        s.ok(&format!("store {} ys d", out.display()));
        let mut want = bin(" i32", &[2], &i32s(&[5, 6]));
        want.extend(bin(" f64", &[], &f64s(&[0.25])));
        assert_eq!(std::fs::read(&out).unwrap(), want);

        // Failures leave no variable behind and the old ones intact.
        s.fail_with(
            &format!("restore {t} a i32 b []i32 x [][]f64"),
            "Variable already exists: x",
        );
        s.fail_with(
            &format!("restore {t} a i32 a []i32"),
            "Variable named twice: a",
        );
        s.fail_with(&format!("restore {t} a i32 b []i32"), "Expected EOF");
        s.fail_with(&format!("restore {t} a i32 b [][]f64"), "Failed to restore");
        s.fail_with(&format!("restore {t} a i32 b nope"), "Unknown type: nope");
        s.fail_with(
            "restore /nonexistent/file a i32",
            "Failed to open /nonexistent/file",
        );
        s.fail_with(&format!("restore {t} a i32 b"), "Usage: restore");
        s.fail_with(&format!("restore {} a state", binf.display()), "PARADOPQ");
        for v in ["a", "b"] {
            s.fail_with(&format!("type {v}"), &format!("Unknown variable: {v}"));
        }
        assert_eq!(s.ok("type x"), lines(&["i32"]));
        s.fail_with("store /nonexistent/dir/f x", "Failed to open");
        s.fail_with(
            &format!("store {} x nope", out.display()),
            "Unknown variable: nope",
        );

        // new_array, index and set (with and without the API's functions).
        s.ok("new_array arr []i32 3 x x x");
        s.ok("new_array mat [][]f64 1 2 d d");
        s.ok("new_array e []i32 0");
        assert_eq!(s.ok("shape e"), lines(&["0"]));
        s.fail_with("new_array z []i32 2 x", "Expected 2 values, but got 1.");
        s.fail_with("new_array z []i32 1 d", "Wrong type for value #0");
        s.fail_with("new_array z [][]f64 1", "Expected 2 dimensions, but got 1.");
        s.fail_with("new_array z []i32 -1", "Invalid size `-1` of dimension 1.");
        s.fail_with("new_array z opt 1 x", "Not an array type: opt");
        s.fail_with("new_array arr []i32 1 x", "Variable already exists: arr");
        s.ok("index i xs 2");
        s.ok("index j m 1 0");
        s.fail_with("index k xs 3", "Invalid index `3` on dimension 1.");
        s.fail_with("index k m 0", "2 indices expected but 1 values provided.");
        s.fail_with("index k x 0", "Not an array type");
        s.ok("set xs x 0");
        s.ok("set m d 0 1");
        s.fail_with("set m x 0 0", "Wrong type for the element");
        s.fail_with("set m d 2 0", "Invalid index `2` on dimension 1.");
        s.ok(&format!("store {} xs m i j arr mat e", out.display()));
        let mut want = bin(" i32", &[3], &i32s(&[7, 2, 3]));
        want.extend(bin(" f64", &[2, 2], &f64s(&[1.0, 0.25, 3.0, 4.0])));
        want.extend(bin(" i32", &[], &i32s(&[3])));
        want.extend(bin(" f64", &[], &f64s(&[3.0])));
        want.extend(bin(" i32", &[3], &i32s(&[7, 7, 7])));
        want.extend(bin(" f64", &[1, 2], &f64s(&[0.25, 0.25])));
        want.extend(bin(" i32", &[0], &[]));
        assert_eq!(std::fs::read(&out).unwrap(), want);

        // rename and free.
        s.ok("rename arr arr2");
        s.fail_with("type arr", "Unknown variable: arr");
        s.fail_with("rename arr2 mat", "Variable already exists: mat");
        s.fail_with("rename nope q", "Unknown variable: nope");
        s.fail_with("free arr2 nope", "Unknown variable: nope");
        s.fail_with("free arr2 arr2", "Variable named twice");
        assert_eq!(s.ok("type arr2"), lines(&["[]i32"]));
        s.ok("free arr2 mat e");
        s.fail_with("type mat", "Unknown variable: mat");
        s.ok("free");
        // Some variables are left for the exit to free.
    });
}

#[test]
fn server_calls() {
    let out = scratch("calls.out");
    each_server(&[], |s| {
        let f = scratch("calls.in");
        std::fs::write(&f, "[1, 2, 3] 1.5 -4 [10, 20]").unwrap();
        s.ok(&format!(
            "restore {} xs []i32 s f64 neg i32 cs []i32",
            f.display()
        ));
        let r = s.ok("call main res xs s");
        assert_eq!(r.len(), 1, "{r:?}");
        let us: i64 = r[0].strip_prefix("runtime: ").unwrap().parse().unwrap();
        assert!(us >= 0);
        assert_eq!(s.ok("type res"), lines(&["(i32, []f64)"]));
        s.ok("project a res 0");
        s.ok("project b res 1");
        s.ok(&format!("store {} a b", out.display()));
        let mut want = bin(" i32", &[], &i32s(&[6]));
        want.extend(bin(" f64", &[3], &f64s(&[1.5, 3.0, 4.5])));
        assert_eq!(std::fs::read(&out).unwrap(), want);

        s.fail_with("call main res xs s", "Variable already exists: res");
        s.fail_with("call main r2 s xs", "Wrong type for input #0");
        s.fail_with("call main r2 xs nope", "Unknown variable: nope");
        s.fail_with("call main r2 xs", "takes 2 inputs, but 1 was given");
        s.fail_with("call nope r2", "Unknown entry point: nope");
        s.fail_with("call main", "Wrong number of arguments (1) for call");
        let e = s.fail("call fail r2 neg");
        assert!(e.contains("negative input -4"), "{e}");
        assert!(e.contains("Backtrace:"), "{e}");
        s.fail_with("type r2", "Unknown variable: r2");
        s.ok("call fail r2 a");
        s.ok(&format!("store {} r2", out.display()));
        assert_eq!(std::fs::read(&out).unwrap(), bin(" i32", &[], &i32s(&[7])));

        // A consumed input may only be freed (or renamed, or asked its type).
        s.ok("call consume cs2 cs");
        assert_eq!(s.ok("type cs"), lines(&["[]i32"]));
        for cmd in [
            "call consume cs3 cs",
            "store /dev/null cs",
            "shape cs",
            "index q cs 0",
            "set cs a 0",
        ] {
            s.fail_with(cmd, "has been consumed");
        }
        s.fail_with("type cs3", "Unknown variable: cs3");
        s.ok("rename cs csx");
        s.ok("free csx");
        s.ok(&format!("store {} cs2", out.display()));
        assert_eq!(
            std::fs::read(&out).unwrap(),
            bin(" i32", &[2], &i32s(&[11, 21]))
        );
        // The same variable consumed and read in one call is refused.
        s.fail_with(
            "call consume_add r5 cs2 cs2",
            "Variable cs2 is consumed by input #0 and cannot also be input #1.",
        );
        s.fail_with("type r5", "Unknown variable");
        s.ok("call consume_add r5 cs2 xs");
        s.fail_with("shape cs2", "has been consumed");
        s.ok(&format!("store {} r5", out.display()));
        assert_eq!(
            std::fs::read(&out).unwrap(),
            bin(" i32", &[2], &i32s(&[12, 23]))
        );
        s.fail_with("free r5 r5", "named twice");
        s.ok("free r5 cs2");

        // Opaque values: store and restore.
        s.ok("new_array n []i32 0");
        s.ok("free n");
        let st = scratch("calls.state");
        let sf = scratch("calls.i64");
        std::fs::write(&sf, "42i64").unwrap();
        s.ok(&format!("restore {} n i64", sf.display()));
        s.ok("call mk_state st n");
        s.ok(&format!("store {} st res st", st.display()));
        s.ok(&format!(
            "restore {} st2 state res3 \"(i32, []f64)\" st3 state",
            st.display()
        ));
        s.fail_with(
            &format!("restore {} st4 opt", st.display()),
            "restore: the bytes are not a stored value of type opt",
        );
        s.fail_with(
            &format!("restore {} st4 state", st.display()),
            "Expected EOF",
        );
        s.fail_with("type st4", "Unknown variable");
        s.ok("call get_state g st3");
        s.ok("project b3 res3 1");
        s.ok(&format!("store {} g b3", out.display()));
        let mut want = bin(" i64", &[], &42i64.to_le_bytes());
        want.extend(bin(" f64", &[3], &f64s(&[1.5, 3.0, 4.5])));
        assert_eq!(std::fs::read(&out).unwrap(), want);
        // The reader counts an opaque value's bytes: a bad value after
        // one is reported at its own byte offset (the state takes 40).
        let mixed = scratch("calls.mixed");
        let mut bytes = std::fs::read(&st).unwrap()[..40].to_vec();
        bytes.extend(bin(" f64", &[1], &f64s(&[1.0])));
        std::fs::write(&mixed, &bytes).unwrap();
        s.fail_with(
            &format!("restore {} st5 state bad []i32", mixed.display()),
            "byte 40: expected []i32, but the binary value has type []f64",
        );
        s.fail_with("type st5", "Unknown variable");
        // A stored opaque value cut short.
        let bytes = std::fs::read(&st).unwrap();
        let cut = scratch("calls.cut");
        std::fs::write(&cut, &bytes[..20]).unwrap();
        s.fail_with(&format!("restore {} c state", cut.display()), "cut short");
        s.fail_with("type c", "Unknown variable");
    });
}

#[test]
fn server_records_and_sums() {
    let out = scratch("records.out");
    each_server(&[], |s| {
        let f = scratch("records.in");
        std::fs::write(&f, "[1, 2] [0.5, 1.5] 3 2.0 [1.0]").unwrap();
        s.ok(&format!(
            "restore {} xs []i32 ys []f64 k i32 y f64 one []f64",
            f.display()
        ));
        // Records: new, project.
        s.ok("new t \"(i32, []f64)\" k ys");
        s.fail_with(
            "new t2 \"(i32, []f64)\" k",
            "2 fields expected but 1 values provided.",
        );
        s.fail_with("new t2 \"(i32, []f64)\" ys k", "Wrong type for field 0");
        s.fail_with("new t2 opt k", "Not a record type: opt");
        s.fail_with("new t \"(i32, []f64)\" k ys", "Variable already exists: t");
        s.ok("project t1 t 1");
        s.fail_with("project t9 t 2", "No field 2 in type (i32, []f64)");
        s.fail_with("project t9 k 0", "Not a record type: i32");
        s.ok("call from_tup r t");
        s.ok(&format!("store {} r t1", out.display()));
        let mut want = bin(" f64", &[], &f64s(&[5.0]));
        want.extend(bin(" f64", &[2], &f64s(&[0.5, 1.5])));
        assert_eq!(std::fs::read(&out).unwrap(), want);

        // Arrays of records: zip, unzip, index, set, shape.
        s.ok("zip ps \"[](i32, f64)\" xs ys");
        s.fail_with("zip ps2 \"[](i32, f64)\" xs one", "differ in length");
        s.fail_with(
            "zip ps2 \"[](i32, f64)\" xs",
            "2 arrays expected but 1 values provided.",
        );
        s.fail_with("zip ps2 \"[](i32, f64)\" ys xs", "Wrong type for field 0");
        s.fail_with("zip ps2 []i32 xs", "Not an array of records");
        s.fail_with("type ps2", "Unknown variable");
        assert_eq!(s.ok("shape ps"), lines(&["2"]));
        s.ok("index p ps 1");
        assert_eq!(s.ok("type p"), lines(&["(i32, f64)"]));
        s.fail_with("index p2 ps 2", "Invalid index `2` on dimension 1.");
        s.ok("new q \"(i32, f64)\" k y");
        s.ok("set ps q 0");
        s.fail_with("set ps k 0", "Wrong type for the element");
        // new_array of non-primitive elements, from their variables.
        s.ok("new_array qs \"[](i32, f64)\" 3 p q p");
        s.ok("new_array qe \"[](i32, f64)\" 0");
        assert_eq!(s.ok("shape qe"), lines(&["0"]));
        s.fail_with(
            "new_array qz \"[](i32, f64)\" 2 q",
            "Expected 2 values, but got 1.",
        );
        s.fail_with(
            "new_array qz \"[](i32, f64)\" 2 q k",
            "Wrong type for value #1: expected (i32, f64), but k has type i32.",
        );
        s.fail_with(
            "new_array qz \"[](i32, f64)\" 1 nope",
            "Unknown variable: nope",
        );
        s.fail_with(
            "new_array qs \"[](i32, f64)\" 1 q",
            "Variable already exists: qs",
        );
        s.fail_with("type qz", "Unknown variable");
        s.ok("unzip qs qa qb");
        s.ok("call pairs_sum qsum qs");
        s.ok(&format!("store {} qa qb qsum", out.display()));
        let mut want = bin(" i32", &[3], &i32s(&[2, 3, 2]));
        want.extend(bin(" f64", &[3], &f64s(&[1.5, 2.0, 1.5])));
        want.extend(bin(" f64", &[], &f64s(&[12.0])));
        assert_eq!(std::fs::read(&out).unwrap(), want);
        s.ok("free qs qe qa qb qsum");
        s.ok("unzip ps us vs");
        s.fail_with("unzip ps us2", "2 arrays expected but 1 values provided.");
        s.fail_with("unzip ps us vs2", "Variable already exists: us");
        s.fail_with("type vs2", "Unknown variable");
        s.fail_with("unzip xs a b", "Not an array of records");
        s.ok("project p0 p 0");
        s.ok("call pairs_sum psum ps");
        s.ok(&format!("store {} us vs p0 psum", out.display()));
        let mut want = bin(" i32", &[2], &i32s(&[3, 2]));
        want.extend(bin(" f64", &[2], &f64s(&[2.0, 1.5])));
        want.extend(bin(" i32", &[], &i32s(&[2])));
        want.extend(bin(" f64", &[], &f64s(&[8.5])));
        assert_eq!(std::fs::read(&out).unwrap(), want);
        // Opaque arrays store and restore like other opaque values.
        let pf = scratch("records.pairs");
        s.ok(&format!("store {} ps", pf.display()));
        s.ok(&format!("restore {} ps2 \"[](i32, f64)\"", pf.display()));
        s.ok("call pairs_sum psum2 ps2");
        s.ok(&format!("store {} psum2", out.display()));
        assert_eq!(
            std::fs::read(&out).unwrap(),
            bin(" f64", &[], &f64s(&[8.5]))
        );

        // Sums: construct, variant, destruct.
        s.ok("construct o opt some k");
        s.ok("construct n opt none");
        assert_eq!(s.ok("variant o"), lines(&["some"]));
        assert_eq!(s.ok("variant n"), lines(&["none"]));
        s.fail_with("variant k", "Not a sum type");
        s.fail_with(
            "construct o2 opt some",
            "1 values expected but 0 values provided.",
        );
        s.fail_with("construct o2 opt some y", "Wrong type for payload #0");
        s.fail_with("construct o2 opt maybe k", "No variant maybe in type opt");
        s.fail_with("construct o2 state none", "Not a sum type: state");
        s.fail_with("type o2", "Unknown variable");
        s.ok("destruct o v");
        s.ok("destruct n");
        s.fail_with(
            "destruct o",
            "1 variables expected but 0 variables provided",
        );
        s.fail_with("destruct o v", "Variable already exists: v");
        s.ok("call opt_get g1 o");
        s.ok("call opt_get g2 n");
        s.ok(&format!("store {} v g1 g2", out.display()));
        let mut want = bin(" i32", &[], &i32s(&[3]));
        want.extend(bin(" i32", &[], &i32s(&[3])));
        want.extend(bin(" i32", &[], &i32s(&[-1])));
        assert_eq!(std::fs::read(&out).unwrap(), want);
        let of = scratch("records.opt");
        s.ok(&format!("store {} o n", of.display()));
        s.ok(&format!("restore {} o3 opt n3 opt", of.display()));
        assert_eq!(s.ok("variant o3"), lines(&["some"]));
        assert_eq!(s.ok("variant n3"), lines(&["none"]));
    });
}

#[test]
fn server_protocol() {
    let spaced = scratch("with space.txt");
    std::fs::write(&spaced, "5").unwrap();
    each_server(&["-P"], |s| {
        s.fail_with("", "Empty line");
        s.fail_with("   ", "Empty line");
        s.fail_with("bogus 1 2", "Unknown command: bogus");
        s.fail_with("types extra", "Wrong number of arguments (1) for types");
        s.fail_with("rename a", "usage: rename OLD NEW");
        s.fail_with("free \"unterminated", "Unterminated quote");
        s.ok(&format!("restore \"{}\" \"x y\" i32", spaced.display()));
        assert_eq!(s.ok("type \"x y\""), lines(&["i32"]));
        assert_eq!(s.ok("  type   \"x y\"  "), lines(&["i32"]));
        s.ok("call fail r \"x y\"");
        s.ok("clear");
        assert_eq!(s.ok("type r"), lines(&["i32"]), "clear keeps variables");
        s.ok("pause_profiling");
        s.ok("call fail r2 r");
        s.ok("unpause_profiling");
        s.ok("call fail r3 r");
        let rep = s.ok("report").join("\n");
        assert!(rep.contains("\"calls\": 3"), "{rep}");
        assert!(rep.contains("\"profiled_calls\": 2"), "{rep}");
        assert!(rep.contains("\"clears\": 1"), "{rep}");
        assert!(rep.contains("\"profiling\": 1"), "{rep}");
        s.ok("set_tuning_param main.threshold 17");
        assert!(s.ok("report").join("").contains("\"threshold\": 17"));
        s.fail_with("set_tuning_param nope 1", "Unknown tuning parameter: nope");
        s.fail_with("set_tuning_param main.tile x", "Invalid value");
        s.fail_with("set_tuning_param main.tile -1", "Invalid value");
        // The session still works.
        assert_eq!(s.ok("type r3"), lines(&["i32"]));
    });
}

#[test]
fn server_options() {
    if !have_cc() {
        return;
    }
    let tuning = scratch("server.tuning");
    std::fs::write(&tuning, "main.threshold=9\nmain.tile=3\n").unwrap();
    let t = tuning.display().to_string();
    each_server(&["-D", "--tuning", &t, "--cache-file=cf"], |s| {
        let rep = s.ok("report").join("");
        for part in [
            "\"debugging\": 1",
            "\"logging\": 1",
            "\"threshold\": 9",
            "\"cache_file\": \"cf\"",
        ] {
            assert!(rep.contains(part), "{part} in {rep}");
        }
    });
    each_server(&["--param", "main.threshold=4", "-L"], |s| {
        let rep = s.ok("report").join("");
        assert!(rep.contains("\"threshold\": 4"), "{rep}");
        assert!(rep.contains("\"logging\": 1"), "{rep}");
    });
    for b in builds() {
        let run = |args: &[&str]| Command::new(&b.server).args(args).output().unwrap();
        let o = run(&["--print-params"]);
        assert!(o.status.success());
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "main.threshold (threshold)\nmain.tile (tile_size)\nfail_init (threshold)\n"
        );
        let o = run(&["-h"]);
        assert!(o.status.success());
        let help = String::from_utf8_lossy(&o.stdout);
        assert!(
            help.contains("Usage:") && help.contains("--print-params"),
            "{help}"
        );
        assert!(!help.contains("--runs"), "{help}");
        let exe = b.server.display().to_string();
        for (args, msg) in [
            (&["-b"][..], "Unknown option: -b"),
            (&["--runs", "2"], "Unknown option: --runs"),
            (&["extra"], "Excess non-option: extra"),
            (&["--param"], "Missing argument for option --param"),
            (&["--param", "nope=1"], "Unknown tuning parameter: nope"),
            (&["--param", "fail_init=1"], "fake initialisation failure"),
            (&["--tuning", "/nonexistent"], "When loading tuning file"),
        ] {
            let o = run(args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
            assert!(err.starts_with(&format!("{exe}: ")), "{args:?}: {err}");
            assert!(err.contains(msg), "{args:?}: expected {msg:?} in {err}");
            assert!(o.stdout.is_empty(), "{args:?}: stdout {:?}", o.stdout);
        }
    }
}

// ---- the executable ----

fn run_exe(exe: &Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The program may exit before reading everything.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Runs the executable of each build; it must succeed (with no live
/// objects left) and print `want`.
fn exe_ok(args: &[&str], input: &[u8], want: &[u8]) {
    if !have_cc() {
        return;
    }
    for b in builds() {
        let o = run_exe(&b.main, args, input);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{args:?}: exit {:?}: {err}", o.status);
        assert!(err.contains("fixture: 0 live objects"), "{args:?}: {err}");
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(want),
            "{args:?}"
        );
    }
}

/// Runs the executable of each build; it must fail with exit status 1
/// and `PROG: ...msg...` on stderr. The stderr of the last build.
fn exe_fails(args: &[&str], input: &[u8], msg: &str) -> String {
    let mut last = String::new();
    if !have_cc() {
        return last;
    }
    for b in builds() {
        let o = run_exe(&b.main, args, input);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        let exe = b.main.display().to_string();
        assert!(err.starts_with(&format!("{exe}: ")), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: expected {msg:?} in {err}");
        last = err;
    }
    last
}

#[test]
fn exe_reads_and_prints() {
    let want = b"6i32\n[1.5f64, 3.0f64, 4.5f64]\n";
    exe_ok(&[], b"[1, 2, 3] 1.5", want);
    exe_ok(&["-e", "main"], b"\n  [1,2,3]\n\n1.5f64\n\n", want);
    // Binary and text inputs mixed.
    let mut input = bin(" i32", &[3], &i32s(&[1, 2, 3]));
    input.extend(b" 1.5");
    exe_ok(&[], &input, want);
    let mut input = b"[1, 2, 3]\n".to_vec();
    input.extend(bin(" f64", &[], &f64s(&[1.5])));
    exe_ok(&[], &input, want);
    // Binary output: each value followed by a newline.
    let mut bout = bin(" i32", &[], &i32s(&[6]));
    bout.push(b'\n');
    bout.extend(bin(" f64", &[3], &f64s(&[1.5, 3.0, 4.5])));
    bout.push(b'\n');
    exe_ok(&["-b"], b"[1, 2, 3] 1.5", &bout);
    exe_ok(&["--binary-output"], b"[1, 2, 3] 1.5", &bout);
    exe_ok(&["-n"], b"[1, 2, 3] 1.5", b"");
    exe_ok(&["-bn"], b"[1, 2, 3] 1.5", b"");
    exe_ok(
        &["-e", "main"],
        b"empty([0]i32) 2.0",
        b"0i32\nempty([0]f64)\n",
    );
    exe_ok(
        &["--entry-point=sum2d"],
        b"[[1.0, 2.0], [3.0, 4.0]]",
        b"10.0f64\n",
    );
    exe_ok(&["-esum2d"], b"empty([0][2]f64)", b"0.0f64\n");
    exe_ok(&["-e", "fail"], b"4", b"5i32\n");
    // A record input is read as its fields; an opaque result is named.
    exe_ok(&["-e", "from_tup"], b"3 [1.0, 2.0]", b"6.0f64\n");
    exe_ok(&["-e", "mk_state"], b"5i64", b"#<opaque state>\n");
}

#[test]
fn exe_runs_and_timing() {
    if !have_cc() {
        return;
    }
    let tfile = scratch("exe.runtimes");
    let t = tfile.display().to_string();
    for b in builds() {
        for (args, runs, calls) in [
            (vec!["-t", t.as_str(), "-P"], 1, 1),
            (vec!["-r", "3", "-t", t.as_str(), "-P"], 3, 4),
            (vec!["-r3", "--write-runtime-to", t.as_str(), "-P"], 3, 4),
            (vec!["--runs=2", "-t", t.as_str(), "--profile"], 2, 3),
        ] {
            let o = run_exe(&b.main, &args, b"[1, 2, 3] 1.5");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "{args:?}: {err}");
            assert_eq!(o.stdout, b"6i32\n[1.5f64, 3.0f64, 4.5f64]\n", "{args:?}");
            let times = std::fs::read_to_string(&tfile).unwrap();
            let times: Vec<&str> = times.lines().collect();
            assert_eq!(times.len(), runs, "{args:?}: {times:?}");
            assert!(times.iter().all(|l| l.parse::<u64>().is_ok()), "{times:?}");
            // The report (with -P): every call counted, only the last profiled.
            assert!(
                err.contains(&format!("\"calls\": {calls}")),
                "{args:?}: {err}"
            );
            assert!(err.contains("\"profiled_calls\": 1"), "{args:?}: {err}");
        }
    }
    // Each run gets fresh inputs (the entry point consumes and changes its input).
    exe_ok(
        &["-e", "consume", "-r", "3"],
        b"[1, 2, 3]",
        b"[2i32, 3i32, 4i32]\n",
    );
}

#[test]
fn exe_errors() {
    let err = exe_fails(&["-e", "nope"], b"", "No entry point 'nope'.");
    for name in ["main", "sum2d", "pairs_sum"] {
        assert!(err.lines().any(|l| l == name), "{name} in {err}");
    }
    exe_fails(
        &[],
        b"[1, 2, x] 1.0",
        "Error when reading input #0 of type []i32",
    );
    exe_fails(&[], b"[1, 2]", "Error when reading input #1 of type f64");
    exe_fails(
        &[],
        b"[1.0] 1.0",
        "Error when reading input #0 of type []i32",
    );
    exe_fails(
        &[],
        b"[1] 1.0 7",
        "Expected EOF on stdin after reading input for \"main\".",
    );
    let mut bad = bin(" f64", &[1], &f64s(&[1.0]));
    bad.extend(b" 1.0");
    exe_fails(&[], &bad, "Error when reading input #0 of type []i32");
    let err = exe_fails(&["-e", "fail"], b"-1", "Error: negative input -1");
    assert!(err.contains("Backtrace:"), "{err}");
    exe_fails(&["-e", "opt_get"], b"", "Cannot read input #0 of type opt");
    exe_fails(
        &["-e", "pairs_sum"],
        b"",
        "Cannot read input #0 of type [](i32, f64)",
    );
    // Options.
    exe_fails(&["-r", "0"], b"", "Need a positive number of runs, not 0");
    exe_fails(&["-r", "x"], b"", "Need a positive number of runs, not x");
    exe_fails(&["-r"], b"", "Missing argument for option -r");
    exe_fails(&["--runs"], b"", "Missing argument for option --runs");
    exe_fails(&["--bogus"], b"", "Unknown option: --bogus");
    exe_fails(&["-x"], b"", "Unknown option: -x");
    exe_fails(&["--log=1"], b"", "Option --log takes no argument");
    exe_fails(&["input.txt"], b"", "Excess non-option: input.txt");
    exe_fails(
        &["-t", "/nonexistent/dir/t"],
        b"",
        "Cannot open /nonexistent/dir/t",
    );
    exe_fails(
        &["--param", "nope=1"],
        b"",
        "Unknown tuning parameter: nope",
    );
    exe_fails(
        &["--param=main.tile"],
        b"",
        "Invalid argument for --param option",
    );
    exe_fails(
        &["--param", "main.tile=x"],
        b"",
        "Invalid value for tuning parameter",
    );
    exe_fails(
        &["--param", "fail_init=1"],
        b"",
        "fake initialisation failure",
    );
    let bad_tuning = scratch("exe.badtuning");
    std::fs::write(&bad_tuning, "main.tile=3\n\n").unwrap();
    exe_fails(
        &["--tuning", &bad_tuning.display().to_string()],
        b"",
        "Invalid line 2 (must be of form 'name=int').",
    );
    std::fs::write(&bad_tuning, "main.tile=3\nnope=2\n").unwrap();
    exe_fails(
        &["--tuning", &bad_tuning.display().to_string()],
        b"",
        "Unknown name 'nope' on line 2.",
    );
}

#[test]
fn exe_options() {
    if !have_cc() {
        return;
    }
    let tuning = scratch("exe.tuning");
    std::fs::write(&tuning, "main.threshold=12\n").unwrap();
    let t = tuning.display().to_string();
    for b in builds() {
        let o = run_exe(&b.main, &["--print-params"], b"");
        assert!(o.status.success());
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "main.threshold (threshold)\nmain.tile (tile_size)\nfail_init (threshold)\n"
        );
        let o = run_exe(&b.main, &["--help"], b"");
        assert!(o.status.success());
        let help = String::from_utf8_lossy(&o.stdout);
        for opt in [
            "--entry-point",
            "--binary-output",
            "--no-print-result",
            "--write-runtime-to",
            "--runs",
            "--debugging",
            "--log",
            "--profile",
            "--param",
            "--tuning",
            "--print-params",
            "--cache-file",
            "--help",
        ] {
            assert!(help.contains(opt), "{opt} in {help}");
        }
        for (args, parts) in [
            (
                vec!["--tuning", t.as_str(), "-P", "--cache-file", "c.bin"],
                vec!["\"threshold\": 12", "\"cache_file\": \"c.bin\""],
            ),
            (
                vec!["--param", "main.threshold=3", "-D"],
                vec!["\"threshold\": 3", "\"debugging\": 1", "\"logging\": 1"],
            ),
            (vec!["-L", "-P"], vec!["\"logging\": 1", "\"profiling\": 1"]),
        ] {
            let o = run_exe(&b.main, &args, b"[1] 2.0");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "{args:?}: {err}");
            for p in parts {
                assert!(err.contains(p), "{args:?}: {p} in {err}");
            }
        }
        // Without -P/-D there is no report.
        let o = run_exe(&b.main, &["-L"], b"[1] 2.0");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("\"calls\""));
    }
}

#[test]
fn multicore_threads() {
    if !have_cc() {
        return;
    }
    let mc = multicore();
    let o = run_exe(&mc.main, &["--num-threads", "3", "-P"], b"[1] 2.0");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("\"threads\": 3"), "{err}");
    let o = run_exe(&mc.main, &["--help"], b"");
    assert!(String::from_utf8_lossy(&o.stdout).contains("--num-threads"));
    let o = run_exe(&mc.main, &["--num-threads", "x"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Invalid number of threads: x"));
    let mut s = Server::start(&mc.server, &["--num-threads=2"]);
    assert!(s.ok("report").join("").contains("\"threads\": 2"));
    s.finish();
    // The c backend has no such option.
    exe_fails(
        &["--num-threads", "2"],
        b"",
        "Unknown option: --num-threads",
    );
    for b in builds() {
        let o = run_exe(&b.server, &["--num-threads", "2"], b"");
        assert_eq!(o.status.code(), Some(1));
    }
}
