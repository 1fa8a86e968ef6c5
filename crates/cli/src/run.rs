//! `parad run`: call an entry point with arguments from standard input.

use crate::args::RunArgs;
use crate::Failure;
use parad_driver::Config;
use std::io::Write;

pub fn run(args: &RunArgs) -> Result<(), Failure> {
    // Dumps asked for with --dump-after go to standard error.
    let config = Config::default().with_dump_after(&args.dump_after);
    let mut tuning = match &args.tuning {
        Some(file) => crate::test::read_tuning_file(file)?,
        None => vec![],
    };
    tuning.extend(args.param.iter().cloned());
    let backend = args
        .backend
        .backend(config, args.threads.map(|n| n as usize), tuning);
    let mut program = backend.load(&args.program).map_err(|e| {
        let msg = e.render();
        if e.is_unsupported() && !msg.starts_with("error") {
            Failure::msg(msg)
        } else {
            Failure::Program(msg)
        }
    })?;
    if !program.has_entry(&args.entry) {
        return Err(Failure::msg(format!(
            "{} has no entry point `{}`",
            args.program.display(),
            args.entry
        )));
    }
    // Literals without a type suffix take the parameters' types.
    let params = program.param_types(&args.entry).unwrap_or_default();
    let arguments = parad_values::read_values_from(std::io::stdin().lock(), &params)
        .map_err(|e| Failure::msg(format!("invalid input on standard input: {e}")))?;
    let results = program.call(&args.entry, arguments).map_err(|e| {
        let msg = e.render();
        // Rendered diagnostics already start with `error:`.
        if msg.starts_with("error") {
            Failure::Program(ensure_newline(msg))
        } else {
            Failure::msg(msg.trim_end())
        }
    })?;
    // Each result is written as soon as it is encoded (a large array is
    // written in pieces, never held twice).
    crate::out::with_stdout(|out| {
        results.iter().try_for_each(|v| {
            if args.binary {
                parad_values::write_binary_to(v, out)
            } else {
                parad_values::write_text(v, out)?;
                out.write_all(b"\n")
            }
        })
    })
}

fn ensure_newline(mut s: String) -> String {
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}
