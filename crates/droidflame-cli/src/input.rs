//! Reading traces from files: a chunk at a time, split traces from their two files, the
//! mapping applied and the source chosen as the options ask.

use droidflame_core::mapping::MappingReader;
use droidflame_core::{Analysis, Analyzer, Options, SourceKind};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Read size: the core takes chunks of any size, so files of any size stream through.
const CHUNK: usize = 1 << 20;

#[derive(clap::Args)]
pub(crate) struct MappingArg {
    /// The build's R8/ProGuard mapping.txt: every name printed is then the original one.
    #[arg(long = "mapping", value_name = "FILE")]
    pub(crate) path: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) source: SourceArg,
}

/// `--source NAME`, `--dump N`: which of the trace's stack data to read.
#[derive(clap::Args, Clone)]
pub(crate) struct SourceArg {
    /// Which of the trace's stack data to read (`summary` lists them under `sources`):
    /// calls, cpu-samples, heap-unreleased, heap-allocated, heap-dominators or heap-paths;
    /// default: the first listed.
    #[arg(long, value_name = "NAME")]
    pub(crate) source: Option<String>,
    /// For heap sources: the heap dump to read, counted from 0 in time order; default: the last.
    #[arg(long, value_name = "N")]
    pub(crate) dump: Option<usize>,
}

impl SourceArg {
    /// Selects the source and dump asked for in `analysis`.
    pub(crate) fn select(&self, analysis: &mut Analysis) -> Result<(), String> {
        let profile = &mut analysis.profile;
        if let Some(dump) = self.dump {
            profile.select_dump(dump).map_err(|e| e.to_string())?;
        }
        let Some(name) = &self.source else { return Ok(()) };
        let kind = SourceKind::named(name).map_err(|e| format!("--source {e}"))?;
        profile.select_source(kind).map_err(|e| e.to_string())
    }
}

/// The trace analysed, with the mapping applied where one is given.
pub(crate) fn analyze_mapped(paths: &[PathBuf], options: Options, mapping: &MappingArg) -> Result<Analysis, String> {
    let mut profile = analyze(paths, options)?;
    if let Some(path) = &mapping.path {
        deobfuscate(std::slice::from_mut(&mut profile), path)?;
    }
    mapping.source.select(&mut profile)?;
    Ok(profile)
}

/// Applies the mapping at `path` to `profiles`, reading it once; what it did goes to stderr.
pub(crate) fn deobfuscate(profiles: &mut [Analysis], path: &Path) -> Result<(), String> {
    let mut reader = MappingReader::new(&profiles.iter().map(|a| &a.profile).collect::<Vec<_>>());
    read_chunks(path, |chunk| reader.push(chunk))?;
    let mapping = reader.finish().map_err(|e| format!("{}: {e}", path.display()))?;
    for profile in profiles {
        let report = profile.deobfuscate(&mapping);
        eprintln!("droidflame: {}", report.describe());
        for warning in &report.warnings {
            eprintln!("droidflame: warning: {}: {warning}", path.display());
        }
    }
    Ok(())
}

pub(crate) fn analyze(paths: &[PathBuf], options: Options) -> Result<Analysis, String> {
    if let [one] = paths {
        let file = open(one)?;
        let size = file.metadata().map_err(|e| format!("cannot read {}: {e}", one.display()))?.len();
        // Large enough to read on every core where its format can split it.
        if size >= droidflame_core::PIECES_FROM_BYTES {
            let source = FileAt { file, size };
            return droidflame_core::analyze_source(&source, options).map_err(|e| format!("{}: {e}", one.display()));
        }
    }
    let mut analyzer = Analyzer::new(options);
    match paths {
        [one] => stream(&mut analyzer, one)?,
        [a, b] => {
            let (key, data) =
                if droidflame_core::split_key_is_second(&head(a)?, &head(b)?).map_err(|e| e.to_string())? {
                    (b, a)
                } else {
                    (a, b)
                };
            stream(&mut analyzer, key)?;
            analyzer.end_of_key_file().map_err(|e| format!("{}: {e}", key.display()))?;
            stream(&mut analyzer, data)?;
        }
        _ => return Err("give one trace file, or a .key and a .data file".into()),
    }
    let name = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" + ");
    analyzer.finish().map_err(|e| format!("{name}: {e}"))
}

/// A file that several threads read at any offset at once.
struct FileAt {
    file: File,
    size: u64,
}

impl droidflame_core::ReadAt for FileAt {
    fn size(&self) -> u64 {
        self.size
    }

    #[cfg(unix)]
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, offset)
    }

    #[cfg(windows)]
    fn read_at(&self, offset: u64, mut buf: &mut [u8]) -> io::Result<()> {
        let mut offset = offset;
        while !buf.is_empty() {
            match std::os::windows::fs::FileExt::seek_read(&self.file, buf, offset) {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    buf = &mut buf[n..];
                    offset += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

pub(crate) fn open(path: &Path) -> Result<File, String> {
    File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))
}

pub(crate) fn head(path: &Path) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    open(path)?.take(16).read_to_end(&mut buf).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(buf)
}

pub(crate) fn stream(analyzer: &mut Analyzer, path: &Path) -> Result<(), String> {
    read_chunks(path, |chunk| analyzer.push(chunk))
}

/// Hands the file at `path` to `each` a chunk at a time.
pub(crate) fn read_chunks(
    path: &Path,
    mut each: impl FnMut(&[u8]) -> droidflame_core::Result<()>,
) -> Result<(), String> {
    let mut file = open(path)?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        each(&buf[..n]).map_err(|e| format!("{}: {e}", path.display()))?;
    }
}
