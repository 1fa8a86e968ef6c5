//! `parad dump`: print a stage's view of the program.

use crate::args::{DumpArgs, Stage};
use crate::Failure;
use parad_base::SourceMap;

pub fn dump(args: &DumpArgs) -> Result<(), Failure> {
    match args.stage {
        Stage::Ast => {
            let path = &args.program;
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::msg(format!("cannot read {}: {e}", path.display())))?;
            let mut sources = SourceMap::new();
            let file = sources.add(path.display().to_string(), text.clone());
            let program = parad_syntax::parse(file, &text)
                .map_err(|d| Failure::Program(d.render(&sources)))?;
            println!("{program:#?}");
            Ok(())
        }
        Stage::Core | Stage::Ad | Stage::Opt => {
            let compiled =
                crate::pipeline::load_program(&args.program).map_err(Failure::Program)?;
            let lowered = crate::pipeline::lower(
                compiled,
                !matches!(args.stage, Stage::Core),
                matches!(args.stage, Stage::Opt),
            )
            .map_err(|e| match e {
                parad_testrun::LoadError::Compile(t) => Failure::Program(t),
                parad_testrun::LoadError::Unsupported(t) => Failure::Program(format!("{t}\n")),
            })?;
            print!("{}", lowered.program);
            // Entry points that AD could not differentiate are left out of
            // the program: say which and why.
            for (entry, why) in &lowered.unsupported {
                eprintln!("entry point `{entry}` left out: {why}");
            }
            Ok(())
        }
    }
}
