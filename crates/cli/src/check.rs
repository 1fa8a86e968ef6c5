//! `parad check`: parse and type check (or read and check printed IR),
//! report diagnostics.

use crate::args::CheckArgs;
use crate::Failure;
use parad_driver::{Config, Source};
use std::io::Write;

pub fn check(args: &CheckArgs) -> Result<(), Failure> {
    let source = Source::read(&args.program).map_err(|e| Failure::Program(e.render()))?;
    let checked = if source.is_printed_ir() {
        // Printed IR: read it and run the IR checker, no pass.
        let config = Config::new().with_check_ir(true);
        source.read_ir(&config).map(|_| ())
    } else {
        source.check().map(|c| {
            if args.automap_stats {
                print_automap_stats(&c.checked.automap_stats);
            }
        })
    };
    checked.map_err(|e| Failure::Program(e.render()))
}

/// One line per definition: its applications and the ILP of thesis Table
/// 4.2 (variables, constraints), then what local solving left.
fn print_automap_stats(stats: &[(String, parad_types::automap::IlpStats)]) {
    let _ = crate::out::with_stdout(|out| {
        for (name, s) in stats {
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
        Ok(())
    });
}
