//! `parad check`: parse and type check (or read and check printed IR),
//! report diagnostics.

use crate::args::CheckArgs;
use crate::Failure;
use parad_driver::{Config, Source};
use std::io::Write;

pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    let source = Source::read(&args.program).map_err(|e| Failure::Program(e.render()))?;
    if source.is_printed_ir() {
        // Printed IR: read it and run the IR checker, no pass.
        let config = Config::new().with_check_ir(true);
        return source
            .read_ir(&config)
            .map(|_| ())
            .map_err(|e| Failure::Program(e.render()));
    }
    let c = source.check().map_err(|e| Failure::Program(e.render()))?;
    if args.automap_stats {
        print_automap_stats(&c.checked)?;
    }
    Ok(())
}

/// One line per definition AUTOMAP ran on: its applications and the ILP of
/// thesis Table 4.2 (variables, constraints), then what local solving left;
/// and the time spent checking definitions and in AUTOMAP.
fn print_automap_stats(c: &parad_types::Checked) -> Result<(), Failure> {
    crate::out::with_stdout(|out| {
        for (name, s) in &c.automap_stats {
            let s = match s {
                Ok(s) => s,
                Err(why) => {
                    writeln!(out, "{name}: not modelled ({why})")?;
                    continue;
                }
            };
            writeln!(
                out,
                "{name}: applications {} constraints {} variables {} forced {} parts {} largest-part-constraints {} solves {}",
                s.applications,
                s.constraints,
                s.variables,
                s.forced,
                s.parts,
                s.largest_part_constraints,
                s.solves
            )?;
        }
        writeln!(
            out,
            "time: definitions {} us, of which AUTOMAP {} us",
            c.check_time.as_micros(),
            c.automap_time.as_micros()
        )
    })
}
