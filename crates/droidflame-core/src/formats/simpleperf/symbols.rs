//! Frame names from the file records, which simpleperf writes after every sample, named
//! as every format names sampled code (`code_names`).

use super::proto::File;
use crate::formats::code_names::CodeFile;
use crate::profile::FrameInfo;

/// What a frame of the samples is, before the file records say what it is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameKey {
    /// Function `symbol` of file `file`.
    Symbol { file: u32, symbol: u32 },
    /// An address in file `file` that no known function covers.
    Address { file: u32, vaddr: u64 },
    /// A sample whose call chain is empty.
    NoCallChain,
}

/// A file's path and the names of its functions.
#[derive(Debug, Default)]
pub struct FileNames {
    path: String,
    symbols: Vec<Vec<u8>>,
    mangled: Vec<Vec<u8>>,
}

impl From<File> for FileNames {
    fn from(file: File) -> FileNames {
        FileNames {
            path: String::from_utf8_lossy(&file.path.unwrap_or_default()).into_owned(),
            symbols: file.symbol,
            mangled: file.mangled_symbol,
        }
    }
}

impl FileNames {
    fn code(&self) -> CodeFile<'_> {
        CodeFile(&self.path)
    }
}

/// The description of the frame `key`, and whether the files said what it is. `java`: a
/// sample ran it interpreted or JIT-compiled.
pub fn describe(key: FrameKey, files: &[Option<FileNames>], java: bool) -> (FrameInfo, bool) {
    let file_of = |id: u32| files.get(id as usize).and_then(Option::as_ref);
    match key {
        FrameKey::NoCallChain => (FrameInfo::named("<no call chain>".to_owned()), true),
        FrameKey::Address { file, vaddr } => match file_of(file) {
            Some(names) => (names.code().address(vaddr), true),
            None => (FrameInfo::named(format!("<unknown file {file}>+{vaddr:#x}")), false),
        },
        FrameKey::Symbol { file, symbol } => {
            let Some(names) = file_of(file) else {
                return (FrameInfo::named(format!("<unknown file {file}>:<function {symbol}>")), false);
            };
            let raw = names.symbols.get(symbol as usize).filter(|s| !s.is_empty());
            let Some(raw) = raw.or_else(|| names.mangled.get(symbol as usize)) else {
                let name = format!("{}:<unknown function {symbol}>", names.code().base_name());
                return (FrameInfo { source: Some(names.path.clone()), ..FrameInfo::named(name) }, false);
            };
            (names.code().function(raw, java), true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, symbols: &[&str]) -> Option<FileNames> {
        Some(FileNames {
            path: path.to_owned(),
            symbols: symbols.iter().map(|s| s.as_bytes().to_vec()).collect(),
            mangled: Vec::new(),
        })
    }

    #[test]
    fn frames_are_named_by_their_kind_of_code() {
        let files = [
            file("/system/framework/framework.jar", &["android.os.Looper.loop", "art_jni_trampoline"]),
            file("/system/lib64/libhwui.so", &[
                "_ZNSt3__110__function6__funcIZN7android10uirenderer12renderthread13DrawFrameTask11postAndWaitEvE3$_0NS_9allocatorIS6_EEFvvEEclEv$c303f2d2360db58ed70a2d0ac7ed911b",
                "_Zgarbage",
            ]),
            file("[kernel.kallsyms]", &["do_page_fault.cfi"]),
            None,
            file("/data/app/x/base.apk!/classes.dex", &[]),
        ];
        let name = |key| {
            let (info, known) = describe(key, &files, false);
            (format!("{}|{}", info.class, info.name), known)
        };
        assert_eq!(name(FrameKey::Symbol { file: 0, symbol: 0 }), ("android.os.Looper|loop".into(), true));
        assert_eq!(name(FrameKey::Symbol { file: 0, symbol: 1 }), ("|art_jni_trampoline".into(), true));
        assert_eq!(
            name(FrameKey::Symbol { file: 1, symbol: 0 }).0,
            "|std::__1::__function::__func<android::uirenderer::renderthread::DrawFrameTask::postAndWait()::$_0, \
             std::__1::allocator<android::uirenderer::renderthread::DrawFrameTask::postAndWait()::$_0>, void ()>::\
             operator()()"
        );
        assert_eq!(name(FrameKey::Symbol { file: 1, symbol: 1 }).0, "|_Zgarbage");
        assert_eq!(name(FrameKey::Symbol { file: 2, symbol: 0 }).0, "|do_page_fault.cfi_[k]");
        assert_eq!(
            name(FrameKey::Address { file: 2, vaddr: 0xffff_ffff_a6a8_b1b5 }).0,
            "|[kernel.kallsyms]+0xffffffffa6a8b1b5_[k]"
        );
        assert_eq!(name(FrameKey::Address { file: 1, vaddr: 0x1a2b }).0, "|libhwui.so+0x1a2b");
        assert_eq!(name(FrameKey::Address { file: 3, vaddr: 16 }), ("|<unknown file 3>+0x10".into(), false));
        assert_eq!(name(FrameKey::Symbol { file: 4, symbol: 2 }), ("|classes.dex:<unknown function 2>".into(), false));
        assert!(!name(FrameKey::Symbol { file: 9, symbol: 2 }).1);
        let (jit, _) = describe(FrameKey::Symbol { file: 1, symbol: 1 }, &files, true);
        assert_eq!(jit.name, "_Zgarbage");
    }
}
