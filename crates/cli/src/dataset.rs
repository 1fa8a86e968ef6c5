//! `parad dataset`: random values of given types, or values read from
//! standard input written in another format (Futhark's `dataset`).
//!
//! The options act in the order given, as Futhark's do: `-b`, `--text`,
//! `-t` and `--T-bounds` change how the `-g` options after them generate
//! and write. The command line is read again here with clap's positions
//! of each option, which the parsed arguments do not keep.

use crate::args::DatasetArgs;
use crate::Failure;
use clap::{Args, FromArgMatches};
use parad_base::PrimType;
use parad_values::{Bounds, GenSpec, Value};
use rand::SeedableRng;
use std::io::Write;

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Text,
    Binary,
    Type,
}

/// One option, at its position on the command line.
enum Step {
    Format(Format),
    Bounds(PrimType, String),
    Generate(String),
}

const BOUNDED: [&str; 11] = [
    "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64",
];

pub fn dataset() -> Result<(), Failure> {
    // The words after `dataset`, parsed again with their positions.
    let words: Vec<std::ffi::OsString> =
        std::env::args_os().skip_while(|w| w != "dataset").collect();
    let m = DatasetArgs::augment_args(clap::Command::new("dataset"))
        .try_get_matches_from(&words)
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let args = DatasetArgs::from_arg_matches(&m).map_err(|e| Failure::Usage(e.to_string()))?;
    let mut steps: Vec<(usize, Step)> = vec![];
    for (id, f) in [
        ("binary", Format::Binary),
        ("text", Format::Text),
        ("types", Format::Type),
    ] {
        // A flag not given still has its default (0), at a position.
        if m.value_source(id) != Some(clap::parser::ValueSource::CommandLine) {
            continue;
        }
        for i in m.indices_of(id).into_iter().flatten() {
            steps.push((i, Step::Format(f)));
        }
    }
    let valued = |id: &str| -> Vec<(usize, String)> {
        match (m.indices_of(id), m.get_many::<String>(id)) {
            (Some(is), Some(vs)) => is.zip(vs.cloned()).collect(),
            _ => vec![],
        }
    };
    for (i, t) in valued("generate") {
        steps.push((i, Step::Generate(t)));
    }
    for name in BOUNDED {
        let ty = PrimType::from_name(name).expect("a primitive type");
        for (i, b) in valued(&format!("{name}_bounds")) {
            steps.push((i, Step::Bounds(ty, b)));
        }
    }
    steps.sort_by_key(|(i, _)| *i);
    let mut format = Format::Text;
    let mut bounds = Bounds::default();
    let mut rng = rand::rngs::StdRng::seed_from_u64(args.seed);
    let mut values: Vec<(Value, Format)> = vec![];
    let mut generated = false;
    for (_, step) in steps {
        match step {
            Step::Format(f) => format = f,
            Step::Bounds(ty, b) => bounds
                .set(ty, &b)
                .map_err(|e| Failure::Usage(format!("--{}-bounds: {e}", ty.name())))?,
            Step::Generate(t) => {
                generated = true;
                let specs = parad_values::parse_gen_specs(&t)
                    .map_err(|e| Failure::Usage(format!("-g {t}: {e}")))?;
                for spec in specs {
                    let v = match spec {
                        GenSpec::Fixed(v) => v,
                        GenSpec::Random(shape, ty) => {
                            parad_values::try_random_value_in(&shape, ty, &bounds, &mut rng)
                                .map_err(|e| Failure::msg(format!("-g {t}: {e}")))?
                        }
                    };
                    values.push((v, format));
                }
            }
        }
    }
    if !generated {
        let read = parad_values::read_values_from(std::io::stdin().lock(), &[])
            .map_err(|e| Failure::msg(format!("invalid input on standard input: {e}")))?;
        values = read.into_iter().map(|v| (v, format)).collect();
    }
    crate::out::with_stdout(|out| {
        values.iter().try_for_each(|(v, f)| match f {
            Format::Binary => parad_values::write_binary_to(v, out),
            Format::Text => {
                parad_values::write_text(v, out)?;
                out.write_all(b"\n")
            }
            Format::Type => writeln!(out, "{}", v.type_name()),
        })
    })
}
