//! C text to a shared library, through a cache on disk.
//!
//! The library of a C text is `<cache>/c/<hash>.so`, where `<hash>` is
//! the SHA-256 of the text, the compiler command and its `--version`
//! output, the flags and parad's version; the text is kept next to it as
//! `<hash>.c` (compiler messages point into it). A second build of the
//! same text with the same compiler and flags compiles nothing.
//!
//! Many threads and processes may build at once: each compiles to a
//! unique temporary name in the cache folder and renames the result into
//! place, which is atomic, so a `<hash>.so` that exists is complete.
//!
//! Configuration, read by [`BuildOptions::from_env`]:
//! - `CC`: the compiler command (words separated by spaces), default `cc`;
//! - `PARAD_SANITIZE=1`: AddressSanitizer and UBSan (at `-O0`, which compiles fastest). The
//!   library then needs the sanitizer runtime loaded first, e.g.
//!   `LD_PRELOAD=$(cc -print-file-name=libasan.so)`;
//! - `PARAD_CFLAGS`: more flags, appended (for debugging);
//! - `PARAD_CACHE_DIR`, else `$XDG_CACHE_HOME/parad`, else
//!   `$HOME/.cache/parad`: the cache (libraries in its `c/` folder).

use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How C text is compiled, and where the libraries are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// The compiler: the program, then arguments given before the flags.
    pub cc: Vec<String>,
    /// Compile with AddressSanitizer and UBSan.
    pub sanitize: bool,
    /// Flags appended after the standard ones.
    pub extra_flags: Vec<String>,
    /// The folder holding `<hash>.so` and `<hash>.c`.
    pub cache_dir: PathBuf,
}

impl BuildOptions {
    /// `cc` with the standard flags, caching libraries in `cache_dir`
    /// (what a library user gets: nothing comes from the environment).
    pub fn new(cache_dir: PathBuf) -> BuildOptions {
        BuildOptions {
            cc: vec!["cc".to_string()],
            sanitize: false,
            extra_flags: vec![],
            cache_dir,
        }
    }

    /// The options the environment asks for (see the module's
    /// documentation).
    pub fn from_env() -> BuildOptions {
        let words = |v: Option<String>| -> Vec<String> {
            v.map(|s| s.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default()
        };
        let mut cc = words(std::env::var("CC").ok());
        if cc.is_empty() {
            cc = vec!["cc".to_string()];
        }
        BuildOptions {
            cc,
            sanitize: std::env::var("PARAD_SANITIZE").is_ok_and(|v| v == "1"),
            extra_flags: words(std::env::var("PARAD_CFLAGS").ok()),
            cache_dir: cache_root().join("c"),
        }
    }

    /// The compiler's flags (without the input and output files).
    pub fn flags(&self) -> Vec<String> {
        let opt = if self.sanitize { "-O0" } else { "-O3" };
        let mut flags: Vec<String> = ["-std=gnu11", opt, "-march=native", "-pthread"]
            .into_iter()
            .chain(["-shared", "-fPIC"])
            .map(str::to_string)
            .collect();
        if self.sanitize {
            flags.extend(
                [
                    "-fsanitize=address,undefined",
                    "-fno-sanitize-recover=undefined",
                    "-fno-omit-frame-pointer",
                ]
                .map(str::to_string),
            );
        }
        flags.extend(self.extra_flags.iter().cloned());
        flags
    }

    /// The compiler command as one string (for messages).
    pub fn cc_name(&self) -> String {
        self.cc.join(" ")
    }
}

/// parad's cache folder: `PARAD_CACHE_DIR`, else `$XDG_CACHE_HOME/parad`,
/// else `$HOME/.cache/parad`, else `parad-cache` in the temporary folder.
pub fn cache_root() -> PathBuf {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("PARAD_CACHE_DIR") {
        return d;
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return d.join("parad");
    }
    if let Some(d) = var("HOME") {
        return d.join(".cache").join("parad");
    }
    std::env::temp_dir().join("parad-cache")
}

/// A library ready to be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The shared library, `<hash>.so`.
    pub library: PathBuf,
    /// The C text it was compiled from, `<hash>.c`.
    pub source: PathBuf,
    /// The cache key, in hexadecimal.
    pub hash: String,
    /// Whether the library was already in the cache (nothing compiled).
    pub cached: bool,
    /// Time spent in [`build_with`] (hashing, and compiling unless cached).
    pub time: Duration,
}

impl Built {
    /// One line for people: `C compiled in 1.234s` or
    /// `C library cached (0.001s)`.
    pub fn describe(&self) -> String {
        let secs = self.time.as_secs_f64();
        if self.cached {
            format!("C library cached ({secs:.3}s)")
        } else {
            format!("C compiled in {secs:.3}s")
        }
    }
}

/// Why no library came out.
#[derive(Debug)]
pub enum BuildError {
    /// The compiler cannot be run (not on `PATH`, or `--version` fails).
    /// A caller may fall back to another backend.
    NoCompiler { cc: String, error: String },
    /// The compiler rejected the C text: the first lines of its messages,
    /// and the kept text they refer to.
    Failed {
        cc: String,
        message: String,
        source: PathBuf,
    },
    /// The cache could not be written.
    Io {
        what: &'static str,
        path: PathBuf,
        error: io::Error,
    },
}

impl BuildError {
    pub fn is_no_compiler(&self) -> bool {
        matches!(self, BuildError::NoCompiler { .. })
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::NoCompiler { cc, error } => {
                write!(f, "no C compiler found ({cc}): {error}")
            }
            BuildError::Failed {
                cc,
                message,
                source,
            } => write!(
                f,
                "the C compiler ({cc}) failed on the generated program {}:\n{message}",
                source.display()
            ),
            BuildError::Io { what, path, error } => {
                write!(f, "cannot {what} {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// Lines of compiler messages kept in [`BuildError::Failed`].
const MESSAGE_LINES: usize = 30;

/// [`build_with`] the options of the environment.
pub fn build(source: &str) -> Result<Built, BuildError> {
    build_with(source, &BuildOptions::from_env())
}

/// Whether the compiler of the environment's options can be run
/// (asked once per process).
pub fn compiler_available() -> bool {
    compiler_version(&BuildOptions::from_env().cc).is_ok()
}

/// The output of `<cc> --version`, run once per process and compiler;
/// [`BuildError::NoCompiler`] when it cannot be run or fails.
pub fn compiler_version(cc: &[String]) -> Result<String, BuildError> {
    type Versions = HashMap<Vec<String>, Result<String, String>>;
    static VERSIONS: OnceLock<Mutex<Versions>> = OnceLock::new();
    let versions = VERSIONS.get_or_init(Default::default);
    // Held while the compiler runs: the first thread asks, the others wait.
    let mut versions = versions.lock().unwrap_or_else(|e| e.into_inner());
    let found = versions
        .entry(cc.to_vec())
        .or_insert_with(|| ask_version(cc))
        .clone();
    found.map_err(|error| BuildError::NoCompiler {
        cc: cc.join(" "),
        error,
    })
}

fn ask_version(cc: &[String]) -> Result<String, String> {
    let (program, args) = cc.split_first().ok_or("the compiler command is empty")?;
    let out = Command::new(program)
        .args(args)
        .arg("--version")
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "`{} --version` failed ({})",
            cc.join(" "),
            out.status
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The cache key of `source` compiled as `options` say, in hexadecimal.
pub fn cache_key(source: &str, options: &BuildOptions) -> Result<String, BuildError> {
    let version = compiler_version(&options.cc)?;
    let mut h = Sha256::new();
    // Each part with its length first, so that no two lists of parts
    // hash the same text.
    let mut part = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    part(b"parad-cgen");
    part(env!("CARGO_PKG_VERSION").as_bytes());
    for w in &options.cc {
        part(w.as_bytes());
    }
    part(version.as_bytes());
    for f in options.flags() {
        part(f.as_bytes());
    }
    part(source.as_bytes());
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// The library of `source`: from the cache, or compiled into it.
pub fn build_with(source: &str, options: &BuildOptions) -> Result<Built, BuildError> {
    let start = Instant::now();
    let hash = cache_key(source, options)?;
    let dir = &options.cache_dir;
    let library = dir.join(format!("{hash}.so"));
    let c_file = dir.join(format!("{hash}.c"));
    let done = |cached| Built {
        library: library.clone(),
        source: c_file.clone(),
        hash: hash.clone(),
        cached,
        time: start.elapsed(),
    };
    if library.is_file() {
        return Ok(done(true));
    }
    let io = |what, path: &Path| {
        let path = path.to_path_buf();
        move |error| BuildError::Io { what, path, error }
    };
    std::fs::create_dir_all(dir).map_err(io("create the cache folder", dir))?;
    let c_tmp = temporary(dir, &hash, "c");
    std::fs::write(&c_tmp, source).map_err(io("write", &c_tmp))?;
    std::fs::rename(&c_tmp, &c_file).map_err(io("write", &c_file))?;

    let so_tmp = temporary(dir, &hash, "so");
    let out = match compile_units(source, options, dir, &hash, &c_file, &so_tmp) {
        Ok(o) => o,
        Err(error) => {
            return Err(BuildError::NoCompiler {
                cc: options.cc_name(),
                error: error.to_string(),
            })
        }
    };
    if !out.status.success() || !so_tmp.is_file() {
        let _ = std::fs::remove_file(&so_tmp);
        let text = String::from_utf8_lossy(&out.stderr);
        let mut message: String = text
            .lines()
            .take(MESSAGE_LINES)
            .map(|l| format!("{l}\n"))
            .collect();
        if text.lines().count() > MESSAGE_LINES {
            message.push_str("...\n");
        }
        if message.is_empty() {
            message = format!("exit status {}\n", out.status);
        }
        return Err(BuildError::Failed {
            cc: options.cc_name(),
            message,
            source: c_file,
        });
    }
    std::fs::rename(&so_tmp, &library).map_err(|e| {
        let _ = std::fs::remove_file(&so_tmp);
        io("write", &library)(e)
    })?;
    Ok(done(false))
}

/// Separates the translation units of a generated program: the text
/// before the first separator (the runtime) starts every unit.
pub const UNIT_SEPARATOR: &str = "\n/* @parad-unit */\n";

/// Compiles `source` into the shared library `so`: in one step, or, when
/// it has several units, each unit into an object file (in parallel, one
/// compiler per core) and then a link. Returns the
/// failing (or last) compiler run.
fn compile_units(
    source: &str,
    options: &BuildOptions,
    dir: &Path,
    hash: &str,
    c_file: &Path,
    so: &Path,
) -> std::io::Result<std::process::Output> {
    let (program, args) = options.cc.split_first().expect("checked by cache_key");
    let cc = || {
        let mut c = Command::new(program);
        c.args(args).args(options.flags());
        c
    };
    let mut parts = source.split(UNIT_SEPARATOR);
    let header = parts.next().unwrap_or("");
    let units: Vec<&str> = parts.collect();
    if units.len() < 2 {
        return cc().arg("-o").arg(so).arg(c_file).arg("-lm").output();
    }
    let files: Vec<(PathBuf, PathBuf)> = (0..units.len())
        .map(|k| {
            (
                temporary(dir, &format!("{hash}.{k}"), "c"),
                temporary(dir, &format!("{hash}.{k}"), "o"),
            )
        })
        .collect();
    // At most one compiler per core: a program with many entry points
    // has as many units, and each compiler takes hundreds of megabytes
    // (more under the sanitizers).
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(units.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Option<std::io::Result<std::process::Output>>> = {
        let slots: Vec<std::sync::Mutex<Option<std::io::Result<std::process::Output>>>> =
            units.iter().map(|_| std::sync::Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(unit) = units.get(k) else { break };
                    let (c, o) = &files[k];
                    let r = std::fs::write(c, format!("{header}{unit}"))
                        .and_then(|()| cc().arg("-c").arg("-o").arg(o).arg(c).output());
                    let failed = !matches!(&r, Ok(out) if out.status.success());
                    *slots[k].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
                    if failed {
                        // The others stop too: the first failure is reported.
                        next.store(units.len(), std::sync::atomic::Ordering::Relaxed);
                    }
                });
            }
        });
        slots
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect()
    };
    let cleanup = |files: &[(PathBuf, PathBuf)]| {
        for (c, o) in files {
            let _ = std::fs::remove_file(c);
            let _ = std::fs::remove_file(o);
        }
    };
    // Units that never ran (after a failure) have no result.
    for r in results.into_iter().flatten() {
        match r {
            Ok(out) if out.status.success() => {}
            other => {
                cleanup(&files);
                return other;
            }
        }
    }
    let out = cc()
        .arg("-o")
        .arg(so)
        .args(files.iter().map(|(_, o)| o))
        .arg("-lm")
        .output();
    cleanup(&files);
    out
}

/// A name in `dir` no other thread or process uses.
fn temporary(dir: &Path, hash: &str, ext: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!("{hash}.tmp-{}-{n}.{ext}", std::process::id()))
}
