//! How a program is compiled and run: backend, threads, cache and the
//! derivatives compiled with it.

use std::path::PathBuf;

/// What runs a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The reference interpreter: no C compiler needed, slow.
    Interpreter,
    /// Sequential C (Futhark's `c` backend), one thread.
    C,
    /// Parallel C (Futhark's `multicore` backend).
    #[default]
    Multicore,
}

impl Backend {
    /// The name `parad` and Futhark use (`interp`, `c`, `multicore`).
    pub fn name(self) -> &'static str {
        match self {
            Backend::Interpreter => "interp",
            Backend::C => "c",
            Backend::Multicore => "multicore",
        }
    }
}

impl std::str::FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Backend, String> {
        match s {
            "interp" | "interpreter" => Ok(Backend::Interpreter),
            "c" => Ok(Backend::C),
            "multicore" => Ok(Backend::Multicore),
            _ => Err(format!(
                "unknown backend `{s}` (expected interp, c or multicore)"
            )),
        }
    }
}

/// How [`Program::compile_file`](crate::Program::compile_file) compiles.
///
/// The default is the multicore backend with a thread per core, the
/// whole optimising pipeline, libraries cached in the user's cache folder
/// (`$XDG_CACHE_HOME/parad`, `~/.cache/parad`) and the C compiler `cc`.
/// Nothing is read from parad's environment variables: a library user
/// says everything here.
///
/// ```
/// use parad::{Backend, Options};
/// let o = Options::default().backend(Backend::C).differentiate(["loss"]);
/// assert_eq!(o.backend, Backend::C);
/// assert_eq!(o.derivatives, ["loss"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    pub backend: Backend,
    /// Threads of the multicore backend (`None`: one per core).
    pub threads: Option<usize>,
    /// The cache of compiled libraries (`None`: the user's cache folder).
    pub cache_dir: Option<PathBuf>,
    /// The C compiler: the program and arguments before parad's flags.
    pub c_compiler: Vec<String>,
    /// Entry points whose reverse (`vjp`) and forward (`jvp`) derivatives
    /// are compiled with the program, for [`Program::vjp`] and
    /// [`Program::jvp`](crate::Program::jvp).
    ///
    /// [`Program::vjp`]: crate::Program::vjp
    pub derivatives: Vec<String>,
    /// Optimise after differentiation (simplification, fusion, hoisting
    /// and copy removal); off, derivatives run as AD wrote them, which
    /// helps to tell an optimiser bug from an AD bug.
    pub optimise: bool,
    /// Check the IR after every pass (slower; for parad's own tests).
    pub check_ir: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            backend: Backend::Multicore,
            threads: None,
            cache_dir: None,
            c_compiler: vec!["cc".to_string()],
            derivatives: vec![],
            optimise: true,
            check_ir: false,
        }
    }
}

impl Options {
    pub fn new() -> Options {
        Options::default()
    }

    pub fn backend(mut self, backend: Backend) -> Options {
        self.backend = backend;
        self
    }

    /// Threads of the multicore backend (0 or `None`: one per core).
    pub fn threads(mut self, threads: impl Into<Option<usize>>) -> Options {
        self.threads = threads.into().filter(|&n| n > 0);
        self
    }

    pub fn cache_dir(mut self, dir: impl Into<PathBuf>) -> Options {
        self.cache_dir = Some(dir.into());
        self
    }

    /// The C compiler command, as words (`["clang"]`, `["ccache", "cc"]`).
    pub fn c_compiler<S: Into<String>>(mut self, words: impl IntoIterator<Item = S>) -> Options {
        self.c_compiler = words.into_iter().map(Into::into).collect();
        self
    }

    /// Also compile the derivatives of these entry points (see
    /// [`Options::derivatives`]).
    pub fn differentiate<S: Into<String>>(
        mut self,
        entries: impl IntoIterator<Item = S>,
    ) -> Options {
        for e in entries {
            let e = e.into();
            if !self.derivatives.contains(&e) {
                self.derivatives.push(e);
            }
        }
        self
    }

    pub fn optimise(mut self, on: bool) -> Options {
        self.optimise = on;
        self
    }

    pub fn check_ir(mut self, on: bool) -> Options {
        self.check_ir = on;
        self
    }

    /// The number of threads programs run with.
    pub(crate) fn thread_count(&self) -> usize {
        match self.backend {
            Backend::C | Backend::Interpreter => 1,
            Backend::Multicore => self
                .threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }

    /// The folder of compiled libraries.
    pub(crate) fn library_dir(&self) -> PathBuf {
        let root = self.cache_dir.clone().unwrap_or_else(|| {
            dirs::cache_dir()
                .unwrap_or_else(std::env::temp_dir)
                .join("parad")
        });
        root.join("c")
    }
}
