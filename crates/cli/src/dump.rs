//! `parad dump`: print a stage's view of the program.

use crate::args::DumpArgs;
use crate::out::with_stdout;
use crate::Failure;
use parad_driver::{compile_file, dump_to_stdout, render, Config, Source};
use std::io::Write;

pub fn dump(args: &DumpArgs) -> Result<(), Failure> {
    if args.stage == "ast" {
        let program = source_stage(args)?
            .parse()
            .map_err(|e| Failure::Program(e.render()))?;
        // The S-expression form, one line per declaration: its size is
        // linear in the tree's (an indented layout is quadratic in the
        // depth, and `{:#?}` took minutes on 1 000 nested operators).
        let text = parad_syntax::sexp::program(&program);
        return with_stdout(|out| write!(out, "{text}"));
    }
    if args.stage == "elaborated" {
        let checked = source_stage(args)?
            .check()
            .map_err(|e| Failure::Program(e.render()))?;
        let text = parad_syntax::print::program(&checked.checked.elaborated_program());
        return with_stdout(|out| write!(out, "{text}"));
    }
    if args.stage == "imp" || args.stage == "c" || args.stage == "gpu" || args.stage == "opencl" {
        let config = Config::default().with_dump_after(&args.dump_after);
        let compiled =
            compile_file(&args.program, &config).map_err(|e| Failure::Program(e.render()))?;
        let target = if args.stage == "gpu" || args.stage == "opencl" {
            parad_imp::Target::Gpu
        } else {
            parad_imp::Target::Multicore
        };
        let imp = parad_imp::lower_program_for(&compiled.program, target)
            .map_err(|e| Failure::Program(format!("cannot compile to C: {e}\n")))?;
        return with_stdout(|out| {
            if args.stage == "gpu" || args.stage == "opencl" {
                let off = parad_gpu::kernels::offload(&imp);
                if args.stage == "opencl" {
                    return write!(
                        out,
                        "{}",
                        parad_gpu::print::opencl_source(&off.program.kernels)
                    );
                }
                for (f, why) in off.program.funs.iter().zip(&off.host) {
                    match why {
                        None => writeln!(out, "-- {}: on the device", f.entry.name)?,
                        Some(w) => writeln!(out, "-- {}: on the host: {w}", f.entry.name)?,
                    }
                }
                write!(out, "{}", off.program)
            } else if args.stage == "imp" {
                write!(out, "{imp}")
            } else {
                out.write_all(parad_cgen::emit::emit_imp(&imp).source.as_bytes())
            }
        });
    }
    let config = Config::for_stage(&args.stage)
        .ok_or_else(|| Failure::Usage(format!("unknown stage `{}`", args.stage)))?
        .with_dump_after(&args.dump_after)
        .with_dump(dump_to_stdout());
    let compiled = compile_file(&args.program, &config).map_err(|e| {
        if e.is_unsupported() {
            Failure::Program(format!("{}\n", e.render()))
        } else {
            Failure::Program(e.render())
        }
    })?;
    with_stdout(|out| {
        if args.stats {
            writeln!(out, "function\t{}", parad_core::stats::Stats::HEADER)?;
            for f in &compiled.program.funs {
                writeln!(
                    out,
                    "{}\t{}",
                    f.name.as_str(),
                    parad_core::stats::Stats::of_fun(f)
                )?;
            }
            Ok(())
        } else {
            write!(out, "{}", compiled.program)
        }
    })?;
    // Entry points that lowering or AD could not handle are left out of
    // the program: say which and why.
    for l in &compiled.left_out {
        let why = render(&l.reason, &compiled.sources);
        let _ = writeln!(
            std::io::stderr(),
            "entry point `{}` left out: {}",
            l.entry,
            why.trim_end()
        );
    }
    Ok(())
}

/// The source file for a stage before core IR (`ast`, `elaborated`), which
/// neither `--dump-after` nor a printed-IR file has.
fn source_stage(args: &DumpArgs) -> Result<Source, Failure> {
    let stage = &args.stage;
    if !args.dump_after.is_empty() {
        return Err(Failure::Usage(format!(
            "--dump-after needs a core-IR stage, not `{stage}`"
        )));
    }
    let source = Source::read(&args.program).map_err(|e| Failure::Program(e.render()))?;
    if source.is_printed_ir() {
        return Err(Failure::Usage(format!(
            "a printed-IR file has no `{stage}` stage; name a core-IR stage"
        )));
    }
    Ok(source)
}
