//! `parad run`: call an entry point with arguments from standard input.

use crate::args::RunArgs;
use crate::Failure;
use parad_driver::Config;
use std::io::{Read, Write};

pub fn run(args: &RunArgs) -> Result<(), Failure> {
    // Dumps asked for with --dump-after go to standard error.
    let config = Config::default().with_dump_after(&args.dump_after);
    let backend = args
        .backend
        .backend(config, args.threads.map(|n| n as usize));
    let mut program = backend.load(&args.program).map_err(|e| {
        if e.is_unsupported() {
            Failure::msg(e.render())
        } else {
            Failure::Program(e.render())
        }
    })?;
    if !program.has_entry(&args.entry) {
        return Err(Failure::msg(format!(
            "{} has no entry point `{}`",
            args.program.display(),
            args.entry
        )));
    }
    let mut input = vec![];
    std::io::stdin()
        .read_to_end(&mut input)
        .map_err(|e| Failure::msg(format!("cannot read standard input: {e}")))?;
    // Literals without a type suffix take the parameters' types.
    let params = program.param_types(&args.entry).unwrap_or_default();
    let arguments = parad_values::read_values_as(&input, &params)
        .map_err(|e| Failure::msg(format!("invalid input on standard input: {e}")))?;
    let results = program.call(&args.entry, arguments).map_err(|e| {
        let msg = e.render();
        if !e.is_unsupported() && msg.starts_with("error") {
            Failure::Program(ensure_newline(msg))
        } else {
            Failure::msg(msg.trim_end())
        }
    })?;
    // Each result is written as soon as it is formatted (a large array is
    // written in pieces). A closed pipe (e.g. `| head`) is not an error of
    // the program.
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let _ = results
        .iter()
        .try_for_each(|v| {
            if args.binary {
                let mut out = vec![];
                parad_values::write_binary(v, &mut out);
                stdout.write_all(&out)
            } else {
                parad_values::write_text(v, &mut stdout)?;
                stdout.write_all(b"\n")
            }
        })
        .and_then(|()| stdout.flush());
    Ok(())
}

fn ensure_newline(mut s: String) -> String {
    if !s.ends_with('\n') {
        s.push('\n');
    }
    s
}
