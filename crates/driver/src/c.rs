//! The compiled C backend as a [`Backend`]: the driver's pipeline, then
//! the C code generator (`parad_cgen`), a C compiler (through the cache
//! of `parad_cgen::build`) and the loaded library.
//!
//! Run-time errors are reported exactly as the interpreter reports them
//! (the same diagnostic, at the same span), and entry points left out by
//! a stage are unsupported in the same way. Without a C compiler the
//! backend warns once per process and runs programs with the interpreter
//! instead (and then counts as an interpreter, so that cases marked
//! `compiled` are skipped).

use crate::backend::{Backend, Loaded, Tuning};
use crate::config::Config;
use crate::error::{DriverError, Message};
use crate::interp::Interpreted;
use crate::pipeline::Compiled;
use parad_cgen::api::Flavour;
use parad_cgen::build::{self, BuildOptions, Built};
use parad_cgen::load::Library;
use parad_cgen::CProgram;
use parad_core::Program;
use parad_interp::RunError;
use parad_values::Value;
use std::io::Write;
use std::path::Path;
use std::sync::Once;

/// The C backend, compiling with its [`Config`] and running programs
/// with `threads` threads (`None`: [`default_threads`]). Named after
/// Futhark's backends: `multicore` (parallel), or `c` when
/// [`C::sequential`] made it (one thread).
#[derive(Clone, Debug, Default)]
pub struct C {
    pub config: Config,
    pub threads: Option<usize>,
    /// Futhark's sequential `c` backend rather than `multicore`.
    pub sequential: bool,
    /// Values of the programs' tuning parameters (`#[param(NAME)]`), as
    /// Futhark's `--param NAME=INT` and `--tuning FILE` set them.
    pub tuning: Tuning,
    /// The `opencl` backend: entry points run on an OpenCL device where
    /// their kernels can be extracted ([`parad_gpu::kernels`]).
    pub opencl: bool,
}

/// What the GPU backends add to a C program: the kernels' source and
/// names, and which entry points stay on the host.
#[derive(Clone, Debug)]
pub struct GpuPart {
    pub source: String,
    pub kernels: Vec<String>,
    /// Per entry point: its name, and why it runs on the host (`None`
    /// when it runs on the device).
    pub host: Vec<(String, Option<String>)>,
}

/// The C code generator: the one place the driver calls it. With
/// `opencl`, kernels are extracted first and printed as OpenCL C.
fn emit(program: &Program, opencl: bool) -> Result<(CProgram, Option<GpuPart>), String> {
    let target = if opencl {
        parad_imp::Target::Gpu
    } else {
        parad_imp::Target::Multicore
    };
    let imp = parad_imp::lower_program_for(program, target).map_err(|e| e.to_string())?;
    if !opencl {
        return Ok((parad_cgen::emit::emit_imp(&imp), None));
    }
    let off = parad_gpu::kernels::offload(&imp);
    let gpu = GpuPart {
        source: parad_gpu::print::opencl_source(&off.program.kernels),
        kernels: off.program.kernels.iter().map(|k| k.name.clone()).collect(),
        host: off
            .program
            .funs
            .iter()
            .map(|f| f.entry.name.clone())
            .zip(off.host)
            .collect(),
    };
    Ok((parad_cgen::emit::emit_imp(&off.program), Some(gpu)))
}

/// Threads of a program when not told: `PARAD_THREADS` if it is a
/// positive number, else the machine's available parallelism.
pub fn default_threads() -> usize {
    std::env::var("PARAD_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

impl C {
    /// The parallel backend (`multicore`).
    pub fn new(config: Config, threads: Option<usize>) -> C {
        C {
            config,
            threads,
            sequential: false,
            tuning: vec![],
            opencl: false,
        }
    }

    /// The `opencl` backend: the multicore backend's host code, with the
    /// entry points whose kernels can be extracted run on an OpenCL
    /// device (`PARAD_OPENCL_DEVICE` selects one by name).
    pub fn opencl(config: Config, threads: Option<usize>) -> C {
        C {
            opencl: true,
            ..C::new(config, threads)
        }
    }

    /// The sequential backend (`c`): one thread.
    pub fn sequential(config: Config) -> C {
        C {
            config,
            threads: Some(1),
            sequential: true,
            tuning: vec![],
            opencl: false,
        }
    }

    /// The number of threads programs run with.
    pub fn threads(&self) -> usize {
        if self.sequential {
            return 1;
        }
        self.threads
            .filter(|&n| n > 0)
            .unwrap_or_else(default_threads)
    }

    /// Compiles a program that has been through the driver's passes:
    /// generates C, builds it (or finds it in the cache) with the options
    /// the environment gives ([`BuildOptions::from_env`]) and loads it.
    /// Without a C compiler, the interpreter runs it (after one warning
    /// per process).
    pub fn load_compiled(&self, compiled: Compiled) -> Result<Box<dyn Loaded>, DriverError> {
        let options = BuildOptions::from_env();
        if build::compiler_version(&options.cc).is_err() {
            warn_no_compiler(&options);
            return Ok(Box::new(Interpreted(compiled)));
        }
        let (program, gpu) = emit(&compiled.program, self.opencl).map_err(cannot_compile)?;
        match self.build_and_load(compiled, program, gpu, &options)? {
            Ok(c) => Ok(Box::new(c)),
            Err(compiled) => {
                warn_no_compiler(&options);
                Ok(Box::new(Interpreted(compiled)))
            }
        }
    }

    /// [`C::load_compiled`] for library users: built with `options`,
    /// with no fallback and no output. Without a C compiler it fails
    /// with [`DriverError::Unsupported`].
    pub fn load_with(
        &self,
        compiled: Compiled,
        options: &BuildOptions,
    ) -> Result<CompiledC, DriverError> {
        if let Err(e) = build::compiler_version(&options.cc) {
            return Err(DriverError::Unsupported(Message::Text(e.to_string())));
        }
        let (program, gpu) = emit(&compiled.program, self.opencl).map_err(cannot_compile)?;
        match self.build_and_load(compiled, program, gpu, options)? {
            Ok(c) => Ok(c),
            Err(_) => Err(DriverError::Unsupported(Message::Text(format!(
                "no C compiler found ({})",
                options.cc_name()
            )))),
        }
    }

    /// The end of [`C::load_compiled`], after the code generator:
    /// `program` (C text meant to implement `compiled`) built with
    /// `options` and loaded. Tests use it with hand-written C.
    pub fn load_c(
        &self,
        compiled: Compiled,
        program: CProgram,
        options: &BuildOptions,
    ) -> Result<Box<dyn Loaded>, DriverError> {
        match self.build_and_load(compiled, program, None, options)? {
            Ok(c) => Ok(Box::new(c)),
            Err(compiled) => {
                warn_no_compiler(options);
                Ok(Box::new(Interpreted(compiled)))
            }
        }
    }

    /// Builds and loads `program`; `Ok(Err(compiled))` when the compiler
    /// cannot be run.
    fn build_and_load(
        &self,
        compiled: Compiled,
        program: CProgram,
        gpu: Option<GpuPart>,
        options: &BuildOptions,
    ) -> Result<Result<CompiledC, Compiled>, DriverError> {
        if let Some((name, _)) = self
            .tuning
            .iter()
            .find(|(n, _)| !program.tuning.contains(n))
        {
            return Err(DriverError::Runtime(Message::Text(format!(
                "unknown tuning parameter {name}: the program has {}",
                if program.tuning.is_empty() {
                    "none".to_string()
                } else {
                    program.tuning.join(", ")
                }
            ))));
        }
        let api = api_entries(&compiled, &program);
        // The program, then the C API in a unit of its own (the same API
        // `parad c --library` writes, which the loader calls).
        let spans = span_locations(&compiled, &program);
        let generated =
            parad_cgen::api::generate(&program, &api, &spans, Flavour::Multicore, "PARAD_H")
                .map_err(internal)?;
        let mut program = program;
        program.source = parad_cgen::api::loadable_source(&program, &generated);
        let built = match build::build_with(&program.source, options) {
            Ok(b) => b,
            Err(e) if e.is_no_compiler() => return Ok(Err(compiled)),
            Err(e) => return Err(internal(e)),
        };
        let mut library =
            parad_cgen::load::load(&program, &api, &built, self.threads(), &self.tuning)
                .map_err(internal)?;
        let device = match gpu {
            Some(gpu) => Some(OnDevice::open(&mut library, gpu, options)?),
            None => None,
        };
        Ok(Ok(CompiledC {
            compiled,
            library,
            device,
            built,
        }))
    }
}

/// The code generator's refusal: something the C backend cannot do yet.
fn cannot_compile(e: String) -> DriverError {
    DriverError::Unsupported(Message::Text(format!(
        "the C backend cannot compile this program: {e}"
    )))
}

/// A failure of the C compiler or the loader on generated code: a bug
/// of parad, reported as the driver reports its internal errors.
fn internal(e: impl std::fmt::Display) -> DriverError {
    DriverError::Program(Message::Text(format!(
        "error: internal compiler error: {e}\n"
    )))
}

fn warn_no_compiler(options: &BuildOptions) {
    static WARNED: Once = Once::new();
    WARNED.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "parad: no C compiler found ({}); using the interpreter",
            options.cc_name()
        );
    });
}

impl Backend for C {
    fn name(&self) -> &str {
        if self.opencl {
            "opencl"
        } else if self.sequential {
            "c"
        } else {
            "multicore"
        }
    }

    /// True only when there is no C compiler (programs are then run by
    /// the interpreter).
    fn is_interpreter(&self) -> bool {
        !build::compiler_available()
    }

    fn load(&self, path: &Path) -> Result<Box<dyn Loaded>, DriverError> {
        let compiled = crate::compile_file(path, &self.config)?;
        self.load_compiled(compiled)
    }

    fn load_tuned(
        &self,
        path: &Path,
        tuning: &[(String, i64)],
    ) -> Result<Box<dyn Loaded>, DriverError> {
        let mut c = self.clone();
        // The backend's own settings (the command line's) come last, so
        // they win over a tuning file's.
        c.tuning = tuning.iter().chain(&self.tuning).cloned().collect();
        c.load(path)
    }
}

/// The device of a program of the `opencl` backend, which its library's
/// context calls through `table` (both outlive the library: the fields
/// of [`CompiledC`] drop in order).
#[derive(Debug)]
pub struct OnDevice {
    pub device: Box<parad_gpu::opencl::OpenClDevice>,
    table: Box<parad_gpu::device::ParadDevice>,
    pub gpu: GpuPart,
}

// SAFETY: the table points at the boxed device, which moves with it;
// `OpenClDevice` is `Send` and serialises every call of the table with
// its own lock, and the library calling the table is used by one thread
// at a time (`Library` is `Send`, not `Sync`).
unsafe impl Send for OnDevice {}

impl OnDevice {
    fn open(
        library: &mut Library,
        gpu: GpuPart,
        options: &BuildOptions,
    ) -> Result<OnDevice, DriverError> {
        let device_error = |e: parad_gpu::device::GpuError| {
            DriverError::Runtime(Message::Text(format!("OpenCL: {e}")))
        };
        let mut device =
            Box::new(parad_gpu::opencl::OpenClDevice::new(None).map_err(device_error)?);
        let cache = options.cache_dir.parent().map(|root| root.join("opencl"));
        if !gpu.kernels.is_empty() {
            device
                .build_cached(&gpu.source, &gpu.kernels, cache.as_deref())
                .map_err(internal)?;
        }
        let table = Box::new(device.table());
        // SAFETY: the table and the device it points to are boxed and
        // dropped after the library (see `CompiledC`).
        unsafe { library.set_device(&*table as *const _ as *const std::ffi::c_void) }
            .map_err(internal)?;
        Ok(OnDevice { device, table, gpu })
    }

    /// Which entry points run on the device, and why the others do not.
    pub fn describe(&self) -> String {
        let mut on = vec![];
        let mut off = vec![];
        for (name, why) in &self.gpu.host {
            match why {
                None => on.push(name.clone()),
                Some(w) => off.push(format!("{name} ({w})")),
            }
        }
        let _ = &self.table;
        format!(
            "on {}: {} kernel(s); entry points on the device: {}; on the host: {}",
            self.device.description(),
            self.gpu.kernels.len(),
            if on.is_empty() {
                "none".into()
            } else {
                on.join(", ")
            },
            if off.is_empty() {
                "none".into()
            } else {
                off.join(", ")
            },
        )
    }
}

/// A program compiled to C and loaded.
#[derive(Debug)]
pub struct CompiledC {
    pub compiled: Compiled,
    pub library: Library,
    /// The OpenCL device, after the library (dropped after it).
    pub device: Option<OnDevice>,
    /// How the library was built: its files, whether the cache had it,
    /// the time it took.
    pub built: Built,
}

impl CompiledC {
    fn runtime_error(&self, e: RunError) -> DriverError {
        self.compiled.runtime_error(e.to_diagnostic())
    }
}

impl Loaded for CompiledC {
    fn call(&mut self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, DriverError> {
        if let Some(why) = self.compiled.left_out_reason(entry) {
            return Err(why);
        }
        let Some(index) = self.library.entry_index(entry) else {
            let e = RunError::new(format!("no entry point named {entry}"), None);
            return Err(self.runtime_error(e));
        };
        self.library
            .call(index, &args)
            .map_err(|e| self.runtime_error(RunError::new(e.message, e.span)))
    }

    fn has_entry(&self, entry: &str) -> bool {
        self.compiled.has_entry(entry)
    }

    fn param_types(&self, entry: &str) -> Option<Vec<parad_values::ValueType>> {
        self.compiled.param_types(entry)
    }

    fn compile_note(&self) -> Option<String> {
        let built = self.built.describe();
        Some(match &self.device {
            Some(d) => format!("{built}; {}", d.describe()),
            None => built,
        })
    }

    fn peak_memory(&self) -> Option<u64> {
        self.library.peak_memory()
    }

    fn reset_peak_memory(&mut self) {
        self.library.reset_peak_memory()
    }
}

/// The interfaces of `program`'s entry points: the source's, or for a
/// program without a source (printed IR) one made of the leaves.
fn api_entries(
    compiled: &Compiled,
    program: &CProgram,
) -> Vec<(String, parad_types::api::ApiEntry)> {
    program
        .entries
        .iter()
        .map(|e| {
            let api = compiled.api_entry(e);
            (e.name.clone(), api)
        })
        .collect()
}

/// Each of `program`'s spans as the `file:line:col` that the C API's error
/// messages show.
pub(crate) fn span_locations(compiled: &Compiled, program: &CProgram) -> Vec<String> {
    program
        .spans
        .iter()
        .map(|s| {
            // The error's location, then the calls it was inlined at, as
            // the runtime's `Backtrace:` lists them.
            if !compiled.has_source_of(s) {
                return String::from("unknown location");
            }
            let mut text = compiled.sources.location(*s).to_string();
            for (k, call) in compiled.program.backtrace(*s).iter().enumerate() {
                if compiled.has_source_of(call) {
                    let at = compiled.sources.location(*call);
                    text.push_str(&format!("\n   #{:<2} {at}", k + 1));
                }
            }
            text
        })
        .collect()
}
