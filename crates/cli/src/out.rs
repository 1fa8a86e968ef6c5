//! Standard output with its write errors checked.
//!
//! Why: `print!` panics when standard output cannot be written (a full
//! disk, `> /dev/full`, a pipe whose reader has gone as in `| head`), and
//! ignoring the result of a write loses output silently. Every command
//! writes through this module: a write error is an `error:` line and exit
//! status 1; a closed pipe ends the command quietly with status 1, as a
//! reader leaving early is no error worth a message (`cat` is killed by
//! the signal just as quietly).

use crate::Failure;
use std::io::{self, BufWriter, ErrorKind, Write};

/// Buffered, locked standard output.
pub fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// The failure for an error writing standard output.
pub fn write_failure(e: io::Error) -> Failure {
    if e.kind() == ErrorKind::BrokenPipe {
        Failure::Reported
    } else {
        Failure::msg(format!("cannot write to standard output: {e}"))
    }
}

/// Runs `write` on buffered standard output and flushes it; any error is
/// the command's failure.
pub fn with_stdout(
    write: impl FnOnce(&mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>,
) -> Result<(), Failure> {
    let mut out = stdout();
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(write_failure)
}

/// Standard output for commands whose output comes from a library that
/// writes as it goes and does not look at write errors (`parad test`,
/// `parad bench`): the first error ends the process at once, as
/// [`write_failure`] says, instead of running on with nowhere to report.
pub struct ExitOnError<W: Write>(pub W);

impl<W: Write> ExitOnError<W> {
    fn check<T>(r: io::Result<T>) -> T {
        match r {
            Ok(x) => x,
            Err(e) => {
                let code = crate::report(write_failure(e));
                std::process::exit(i32::from(code));
            }
        }
    }
}

impl<W: Write> Write for ExitOnError<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(Self::check(self.0.write(buf)))
    }

    fn flush(&mut self) -> io::Result<()> {
        Self::check(self.0.flush());
        Ok(())
    }
}
