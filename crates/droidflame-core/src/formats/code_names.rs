//! Names of sampled code, the same for every format that samples call stacks (simpleperf,
//! Perfetto's CPU samples and heap profiles): Java methods as `Class.method` (so a mapping
//! file applies to them), C++ names demangled, kernel functions marked `_[k]` (the mark
//! flame graph palettes colour), and code with no known function named by its file and
//! offset.

use crate::profile::FrameInfo;
pub use crate::profile::KERNEL_MARK;

/// A file of code, by its path.
#[derive(Debug, Clone, Copy)]
pub struct CodeFile<'a>(pub &'a str);

impl<'a> CodeFile<'a> {
    /// The kernel or one of its modules (simpleperf names the kernel `[kernel.kallsyms]`,
    /// Perfetto's recorder `kernel`).
    pub fn is_kernel(self) -> bool {
        self.0.starts_with("[kernel") || self.0 == "/kernel" || self.0.ends_with(".ko")
    }

    /// Java code: dex, oat and jar files of ART, and its JIT cache.
    pub fn is_java(self) -> bool {
        const JAVA: [&str; 7] = [".jar", ".vdex", ".oat", ".odex", ".apk", ".dex", ".art"];
        JAVA.iter().any(|ext| self.0.ends_with(ext))
            || self.0.starts_with("[JIT")
            || self.0.contains("dalvik-jit-code-cache")
            || self.0.contains("jit-cache")
    }

    /// Its file name, without the folders.
    pub fn base_name(self) -> &'a str {
        self.0.rsplit('/').next().filter(|name| !name.is_empty()).unwrap_or(self.0)
    }

    /// The frame of function `name` of this file; `java`: the sample ran it as Java
    /// (interpreted or JIT-compiled), whatever the file.
    pub fn function(self, name: &[u8], java: bool) -> FrameInfo {
        let name = demangled(&String::from_utf8_lossy(name));
        let info = if self.is_kernel() {
            FrameInfo::named(format!("{name}{KERNEL_MARK}"))
        } else if java || self.is_java() {
            java_method(name)
        } else {
            FrameInfo::named(name)
        };
        FrameInfo { source: Some(self.0.to_owned()), ..info }
    }

    /// The frame of code at `offset` in this file that no known function covers.
    pub fn address(self, offset: u64) -> FrameInfo {
        let mark = if self.is_kernel() { KERNEL_MARK } else { "" };
        FrameInfo {
            source: Some(self.0.to_owned()),
            ..FrameInfo::named(format!("{}+{offset:#x}{mark}", self.base_name()))
        }
    }
}

/// `pkg.Class.method` split into class and method; other names (stubs in oat files, and
/// names with a signature, which ART's unwinder writes as `void pkg.Class.method(int)`)
/// whole or cut to the method.
pub fn java_method(name: String) -> FrameInfo {
    let name = without_signature(&name).unwrap_or(name);
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

/// `pkg.Class.method` from `type pkg.Class.method(args)`, where the name has that shape.
fn without_signature(name: &str) -> Option<String> {
    let open = name.find('(')?;
    if !name.ends_with(')') {
        return None;
    }
    let head = &name[..open];
    let method = head.rsplit_once(' ').map_or(head, |(_, m)| m);
    (!method.is_empty() && !method.contains(['<', ':'])).then(|| method.to_owned())
}

/// A C++ name demangled, where the recorder left it mangled: those it could not read carry
/// a `$` and a hash that the linker added for functions made global, which is cut first.
/// Anything else, or a name that will not demangle, stays as it is.
pub fn demangled(name: &str) -> String {
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

    #[test]
    fn java_names_with_a_signature_lose_it() {
        let m = java_method("void com.example.Foo.bar(int, java.lang.String)".to_owned());
        assert_eq!((m.class.as_str(), m.name.as_str()), ("com.example.Foo", "bar"));
        let m = java_method("com.example.Foo.<init>".to_owned());
        assert_eq!((m.class.as_str(), m.name.as_str()), ("com.example.Foo", "<init>"));
        let m = java_method("art_quick_invoke_stub".to_owned());
        assert_eq!(m.name, "art_quick_invoke_stub");
        let k = CodeFile("[kernel.kallsyms]").function(b"__schedule", false);
        assert_eq!(k.name, "__schedule_[k]");
        assert_eq!(CodeFile("/kernel").function(b"schedule", false).name, "schedule_[k]");
        let jit = CodeFile("/memfd:jit-cache (deleted)").function(b"void com.example.Foo.bar()", false);
        assert_eq!((jit.class.as_str(), jit.name.as_str()), ("com.example.Foo", "bar"));
        assert_eq!(CodeFile("/system/lib64/libc.so").address(0x1a2b).name, "libc.so+0x1a2b");
    }
}
