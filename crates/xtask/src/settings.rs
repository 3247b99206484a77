//! The web build settings in `wasm-pack.toml`: a small TOML subset (sections,
//! `key = "string"` and `key = ["strings"]`), read without a TOML dependency.

use crate::command::root;

pub struct WebSettings {
    pub crate_name: String,
    pub profile: String,
    pub wasm_opt_args: Vec<String>,
}

impl WebSettings {
    pub fn load() -> Result<WebSettings, String> {
        let path = root().join("wasm-pack.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let value = |section: &str, key: &str| -> Result<Value, String> {
            find(&text, section, key).ok_or_else(|| format!("wasm-pack.toml has no [{section}] {key}"))
        };
        Ok(WebSettings {
            crate_name: value("build", "crate")?.string()?,
            profile: value("build", "profile")?.string()?,
            wasm_opt_args: value("wasm-opt", "args")?.list()?,
        })
    }

    /// The wasm file cargo writes for the bindings crate: under `CARGO_TARGET_DIR` when it is
    /// set (cargo builds there), else under the workspace's `target/`.
    pub fn wasm_path(&self) -> String {
        self.wasm_path_in(&std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".to_owned()))
    }

    /// The wasm file cargo writes for the bindings crate under the target directory `target`.
    fn wasm_path_in(&self, target: &str) -> String {
        format!("{target}/wasm32-unknown-unknown/{}/{}.wasm", self.profile, self.crate_name.replace('-', "_"))
    }
}

#[derive(Debug, PartialEq)]
enum Value {
    String(String),
    List(Vec<String>),
}

impl Value {
    fn string(self) -> Result<String, String> {
        match self {
            Value::String(s) => Ok(s),
            Value::List(_) => Err("wasm-pack.toml: expected a string, found a list".into()),
        }
    }

    fn list(self) -> Result<Vec<String>, String> {
        match self {
            Value::List(l) => Ok(l),
            Value::String(_) => Err("wasm-pack.toml: expected a list, found a string".into()),
        }
    }
}

fn find(text: &str, section: &str, key: &str) -> Option<Value> {
    let mut current = "";
    for line in text.lines() {
        let line = line.split(" #").next().unwrap_or("").trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = name.trim();
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if current == section && k.trim() == key {
            return parse_value(v.trim());
        }
    }
    None
}

fn parse_value(text: &str) -> Option<Value> {
    if let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let items = inner.split(',').map(str::trim).filter(|s| !s.is_empty());
        return items.map(unquote).collect::<Option<Vec<_>>>().map(Value::List);
    }
    unquote(text).map(Value::String)
}

fn unquote(text: &str) -> Option<String> {
    text.strip_prefix('"')?.strip_suffix('"').map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_strings_and_lists_by_section() {
        let text = "# c\n[build]\ncrate = \"x-y\"\n[wasm-opt]\nargs = [\"-Oz\", \"--a\"]  # note\n";
        assert_eq!(find(text, "build", "crate"), Some(Value::String("x-y".into())));
        assert_eq!(find(text, "wasm-opt", "args"), Some(Value::List(vec!["-Oz".into(), "--a".into()])));
        assert_eq!(find(text, "build", "args"), None);
    }

    #[test]
    fn the_project_settings_load() {
        let settings = WebSettings::load().unwrap();
        assert_eq!(settings.wasm_path_in("target"), "target/wasm32-unknown-unknown/release/droidflame_wasm.wasm");
        assert_eq!(settings.wasm_path_in("/tmp/t"), "/tmp/t/wasm32-unknown-unknown/release/droidflame_wasm.wasm");
        assert!(settings.wasm_opt_args.iter().any(|a| a.starts_with("-O")));
    }
}
