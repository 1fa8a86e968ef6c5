//! Reading a sequence of values in either format, mixed freely, from bytes
//! or a (possibly gzip-compressed) file.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::binary::{
    alloc_elems, decode_into, parse_header, parse_shape, payload_size, read_binary_value,
};
use crate::error::{DataError, Location};
use crate::text_read::TextReader;
use crate::value::{ArrayValue, Value, ValueType};

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads all values in `bytes`. Each value is binary if it starts with `b`
/// and text otherwise; blanks and `--` comments may separate them. Input
/// starting with the gzip magic bytes is decompressed first (error
/// locations then refer to the decompressed data).
pub fn read_values(bytes: &[u8]) -> Result<Vec<Value>, DataError> {
    read_values_as(bytes, &[])
}

/// Reads all values in `bytes` (as [`read_values`]) as the arguments of an
/// entry point whose parameters have types `expected`: a text literal
/// without a type suffix in value `i` gets the element type of
/// `expected[i]` (`2` is read as `2f64` for an `f64` parameter, `[1, 2]`
/// as `[1f32, 2f32]` for a `[]f32` one), and is an error if it does not
/// fit in it (`300` for `u8`, `1.5` for `i64`). Suffixed literals and
/// values past the end of `expected` keep their own types.
pub fn read_values_as(bytes: &[u8], expected: &[ValueType]) -> Result<Vec<Value>, DataError> {
    if bytes.starts_with(&GZIP_MAGIC) {
        let mut plain = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes)
            .read_to_end(&mut plain)
            .map_err(|e| DataError::new(None, format!("invalid gzip data: {e}")))?;
        return read_plain(&plain, expected);
    }
    read_plain(bytes, expected)
}

fn read_plain(input: &[u8], expected: &[ValueType]) -> Result<Vec<Value>, DataError> {
    read_plain_from(input, expected, 0)
}

/// [`read_plain`] for values that follow `first` earlier ones.
fn read_plain_from(
    input: &[u8],
    expected: &[ValueType],
    first: usize,
) -> Result<Vec<Value>, DataError> {
    let reader = TextReader::new(input);
    let mut values = Vec::new();
    let mut pos = reader.skip_blank(0);
    while pos < input.len() {
        let (v, end) = if input[pos] == b'b' {
            read_binary_value(input, pos)?
        } else {
            reader.read_value(pos, expected.get(first + values.len()).copied())?
        };
        values.push(v);
        pos = reader.skip_blank(end);
    }
    Ok(values)
}

/// Reads all values in a file; gzip is detected by content, not name.
/// Errors name the file.
pub fn read_file(path: &Path) -> Result<Vec<Value>, DataError> {
    read_file_as(path, &[])
}

/// Reads all values in a file as the arguments of an entry point whose
/// parameters have types `expected` (see [`read_values_as`]). Binary
/// values are read straight into their arrays (see [`read_values_from`]).
pub fn read_file_as(path: &Path, expected: &[ValueType]) -> Result<Vec<Value>, DataError> {
    let cannot = |e| DataError::new(None, format!("cannot read file: {e}")).in_file(path);
    let file = std::fs::File::open(path).map_err(cannot)?;
    let len = file.metadata().map_err(cannot)?.len();
    read_stream(file, Some(len), expected).map_err(|e| e.in_file(path))
}

/// [`read_values_as`] on a stream (standard input, a file). As long as
/// the values are binary, each is read straight into its array, a piece
/// at a time, so that a large input is not held twice (once as bytes and
/// once as elements); from the first text value on, the rest of the input
/// is read into memory and parsed as [`read_values_as`] does. Error
/// locations are those [`read_values_as`] would give for the whole input,
/// and so are the errors, but for a binary value that claims more memory
/// than can be had: that is an out-of-memory error (the input's length is
/// not known in advance to tell it truncated).
pub fn read_values_from(r: impl Read, expected: &[ValueType]) -> Result<Vec<Value>, DataError> {
    read_stream(r, None, expected)
}

/// [`read_values_from`] on input of `len` bytes, if known: then a binary
/// value that claims more bytes than are left is found truncated before
/// anything is allocated for it.
fn read_stream(
    r: impl Read,
    len: Option<u64>,
    expected: &[ValueType],
) -> Result<Vec<Value>, DataError> {
    let mut r = BufReader::with_capacity(CHUNK, r);
    let mut magic = vec![];
    (&mut r)
        .take(2)
        .read_to_end(&mut magic)
        .map_err(read_error)?;
    if magic == GZIP_MAGIC {
        let plain = flate2::read::MultiGzDecoder::new(magic.chain(r));
        let mut stream = Stream::new(plain, None);
        stream.read_err = "invalid gzip data";
        return stream.read_all(expected);
    }
    Stream::new(magic.chain(r), len).read_all(expected)
}

const CHUNK: usize = 1 << 16;

fn read_error(e: std::io::Error) -> DataError {
    DataError::new(None, format!("cannot read input: {e}"))
}

impl<R> Stream<R> {
    fn read_error(&self, e: std::io::Error) -> DataError {
        DataError::new(None, format!("{}: {e}", self.read_err))
    }
}

/// Input read so far: its length, and where its last line starts (for
/// line and column numbers in the rest).
struct Stream<R> {
    r: BufReader<R>,
    /// The length of the input, if known.
    len: Option<u64>,
    /// What a read error means.
    read_err: &'static str,
    pos: usize,
    lines: usize,
    line_start: usize,
}

impl<R: Read> Stream<R> {
    fn new(r: R, len: Option<u64>) -> Stream<R> {
        Stream {
            r: BufReader::with_capacity(CHUNK, r),
            len,
            read_err: "cannot read input",
            pos: 0,
            lines: 0,
            line_start: 0,
        }
    }

    /// Notes that `bytes` were read.
    fn count(&mut self, bytes: &[u8]) {
        let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
        if newlines > 0 {
            self.lines += newlines;
            let last = bytes.iter().rposition(|&b| b == b'\n').unwrap_or(0);
            self.line_start = self.pos + last + 1;
        }
        self.pos += bytes.len();
    }

    /// Reads up to `buf.len()` bytes, fewer only at the end of the input.
    fn fill(&mut self, buf: &mut [u8]) -> Result<usize, DataError> {
        let mut got = 0;
        while got < buf.len() {
            match self.r.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(m) => got += m,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.read_error(e)),
            }
        }
        self.count(&buf[..got]);
        Ok(got)
    }

    fn read_all(mut self, expected: &[ValueType]) -> Result<Vec<Value>, DataError> {
        let mut values = vec![];
        // Blanks before the first value, kept so that text positions are
        // unchanged when the input turns out to be text.
        let mut blanks = vec![];
        loop {
            let what = self.read_err;
            let buf = self
                .r
                .fill_buf()
                .map_err(|e| DataError::new(None, format!("{what}: {e}")))?;
            let Some(&b) = buf.first() else {
                return Ok(values);
            };
            if b.is_ascii_whitespace() {
                let n = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
                if values.is_empty() {
                    blanks.extend_from_slice(&buf[..n]);
                }
                let consumed = buf[..n].to_vec();
                self.r.consume(n);
                self.count(&consumed);
            } else if b == b'b' {
                blanks.clear();
                let v = self.read_binary()?;
                values.push(v);
            } else {
                return self.read_text(blanks, values, expected);
            }
        }
    }

    /// Reads one binary value from the stream.
    fn read_binary(&mut self) -> Result<Value, DataError> {
        let start = self.pos;
        let mut header = [0u8; 7];
        let n = self.fill(&mut header)?;
        if n < header.len() {
            return Err(DataError::at_byte(
                start,
                format!(
                    "truncated binary value: expected a {}-byte header, found {n} bytes",
                    header.len()
                ),
            ));
        }
        let (rank, t) = parse_header(&header, start)?;
        let at = self.pos;
        let mut dims = vec![0u8; rank * 8];
        let n = self.fill(&mut dims)?;
        if n < dims.len() {
            return Err(DataError::at_byte(
                at,
                format!(
                    "truncated binary value: expected {} bytes of shape for rank {rank}, found {n}",
                    dims.len()
                ),
            ));
        }
        let shape = parse_shape(&dims, at)?;
        let at = self.pos;
        let left = self
            .len
            .map(|n| usize::try_from(n.saturating_sub(at as u64)).unwrap_or(usize::MAX));
        let (count, nbytes) = payload_size(&shape, t, at, left)?;
        let mut data = alloc_elems(t, count, &shape, at)?;
        let mut chunk = vec![0u8; nbytes.min(CHUNK / 8 * 8)];
        let mut done = 0;
        while done < nbytes {
            let want = (nbytes - done).min(chunk.len());
            let base = self.pos;
            let n = self.fill(&mut chunk[..want])?;
            if n < want {
                return Err(DataError::at_byte(
                    at,
                    format!(
                        "truncated binary value: expected {nbytes} bytes of {t} data, found {}",
                        done + n
                    ),
                ));
            }
            decode_into(&mut data, &chunk[..want], base)?;
            done += want;
        }
        Ok(if rank == 0 {
            Value::Scalar(data.get(0).expect("a rank-0 value has one element"))
        } else {
            Value::Array(ArrayValue { shape, data })
        })
    }

    /// Reads the rest of the input into memory and parses it, after the
    /// binary `values` read so far.
    fn read_text(
        mut self,
        blanks: Vec<u8>,
        mut values: Vec<Value>,
        expected: &[ValueType],
    ) -> Result<Vec<Value>, DataError> {
        let mut rest = blanks;
        let skipped = rest.len();
        self.r
            .read_to_end(&mut rest)
            .map_err(|e| self.read_error(e))?;
        // The rest starts at this offset, line and column of the input.
        let (offset, line, col) = if values.is_empty() {
            (0, 0, 0)
        } else {
            (self.pos, self.lines, self.pos - self.line_start)
        };
        debug_assert!(values.is_empty() || skipped == 0);
        let more = read_plain_from(&rest, expected, values.len()).map_err(|mut e| {
            e.location = e.location.map(|l| match l {
                Location::Byte(b) => Location::Byte(b + offset),
                Location::Line { line: 1, col: c } => Location::Line {
                    line: 1 + line,
                    col: c + col,
                },
                Location::Line { line: l, col: c } => Location::Line {
                    line: l + line,
                    col: c,
                },
            });
            e
        })?;
        values.extend(more);
        Ok(values)
    }
}
