//! Frame names from the file records, which simpleperf writes after every sample: Java
//! methods as `Class.method` (so a mapping file applies to them), C++ names demangled where
//! simpleperf left them mangled, kernel functions marked `_[k]` (the mark flame graph
//! palettes colour), and code with no known function named by its file and address.

use super::proto::File;
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

/// The mark of a kernel function, as Linux perf's flame graph tools write it.
pub const KERNEL_MARK: &str = "_[k]";

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
    fn is_kernel(&self) -> bool {
        self.path == "[kernel.kallsyms]" || self.path.ends_with(".ko")
    }

    /// Java code: dex, oat and jar files of ART, and its JIT cache.
    fn is_java(&self) -> bool {
        const JAVA: [&str; 7] = [".jar", ".vdex", ".oat", ".odex", ".apk", ".dex", ".art"];
        JAVA.iter().any(|ext| self.path.ends_with(ext))
            || self.path.starts_with("[JIT")
            || self.path.contains("dalvik-jit-code-cache")
    }

    fn base_name(&self) -> &str {
        self.path.rsplit('/').next().filter(|name| !name.is_empty()).unwrap_or(&self.path)
    }
}

/// The description of the frame `key`, and whether the files said what it is. `java`: a
/// sample ran it interpreted or JIT-compiled.
pub fn describe(key: FrameKey, files: &[Option<FileNames>], java: bool) -> (FrameInfo, bool) {
    let file_of = |id: u32| files.get(id as usize).and_then(Option::as_ref);
    match key {
        FrameKey::NoCallChain => (FrameInfo::named("<no call chain>".to_owned()), true),
        FrameKey::Address { file, vaddr } => match file_of(file) {
            Some(names) => {
                let mark = if names.is_kernel() { KERNEL_MARK } else { "" };
                let info = FrameInfo {
                    source: Some(names.path.clone()),
                    ..FrameInfo::named(format!("{}+{vaddr:#x}{mark}", names.base_name()))
                };
                (info, true)
            }
            None => (FrameInfo::named(format!("<unknown file {file}>+{vaddr:#x}")), false),
        },
        FrameKey::Symbol { file, symbol } => {
            let Some(names) = file_of(file) else {
                return (FrameInfo::named(format!("<unknown file {file}>:<function {symbol}>")), false);
            };
            let raw = names.symbols.get(symbol as usize).filter(|s| !s.is_empty());
            let Some(raw) = raw.or_else(|| names.mangled.get(symbol as usize)) else {
                let name = format!("{}:<unknown function {symbol}>", names.base_name());
                return (FrameInfo { source: Some(names.path.clone()), ..FrameInfo::named(name) }, false);
            };
            let name = demangled(&String::from_utf8_lossy(raw));
            let info = if names.is_kernel() {
                FrameInfo::named(format!("{name}{KERNEL_MARK}"))
            } else if java || names.is_java() {
                java_method(name)
            } else {
                FrameInfo::named(name)
            };
            (FrameInfo { source: Some(names.path.clone()), ..info }, true)
        }
    }
}

/// `pkg.Class.method` split into class and method; other names (stubs in oat files) whole.
fn java_method(name: String) -> FrameInfo {
    if name.contains(['(', ' ', ':']) {
        return FrameInfo::named(name);
    }
    match name.rsplit_once('.') {
        Some((class, method)) if !class.is_empty() && !method.is_empty() => {
            FrameInfo { class: class.to_owned(), name: method.to_owned(), ..FrameInfo::named(String::new()) }
        }
        _ => FrameInfo::named(name),
    }
}

/// A C++ name demangled, where simpleperf left it mangled: those it could not read carry a
/// `$` and a hash that the linker added for functions made global, which is cut first.
/// Anything else, or a name that will not demangle, stays as it is.
fn demangled(name: &str) -> String {
    if !name.starts_with("_Z") {
        return name.to_owned();
    }
    let demangle = |mangled: &str| cpp_demangle::Symbol::new(mangled).ok().and_then(|s| s.demangle().ok());
    demangle(name)
        .or_else(|| name.rsplit_once('$').and_then(|(mangled, _)| demangle(mangled)))
        .unwrap_or_else(|| name.to_owned())
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
