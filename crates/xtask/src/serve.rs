//! `cargo xtask serve`: builds `dist/` and serves it on 127.0.0.1, with the MIME types
//! browsers insist on (wasm, JavaScript). A plain std server: no dependency, local only.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

pub fn serve(port: u16) -> Result<(), String> {
    let dist = crate::dist::dist()?;
    let listener =
        TcpListener::bind(("127.0.0.1", port)).map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    println!("droidflame is at http://{address}/  (the single-file build: http://{address}/droidflame.html)");
    println!("Ctrl-C stops the server.");
    for stream in listener.incoming().flatten() {
        let dist = dist.clone();
        std::thread::spawn(move || {
            let _ = respond(stream, &dist);
        });
    }
    Ok(())
}

fn respond(mut stream: TcpStream, dist: &Path) -> std::io::Result<()> {
    let mut request = String::new();
    BufReader::new(&stream).read_line(&mut request)?;
    let target = request.split_whitespace().nth(1).unwrap_or("/");
    let target = target.split(['?', '#']).next().unwrap_or("/");
    let (status, kind, body) = match file_for(dist, target).and_then(|p| std::fs::read(&p).ok().map(|b| (p, b))) {
        Some((path, body)) => ("200 OK", mime(&path), body),
        None => ("404 Not Found", "text/plain; charset=utf-8", b"not found\n".to_vec()),
    };
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(&body)
}

fn file_for(dist: &Path, target: &str) -> Option<PathBuf> {
    let relative = Path::new(target.trim_start_matches('/'));
    if relative.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let path = dist.join(relative);
    if path.is_dir() {
        Some(path.join("index.html"))
    } else {
        Some(path)
    }
}

fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("ts") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_inside_dist_are_served() {
        let dist = Path::new("/srv/dist");
        assert_eq!(file_for(dist, "/app.js"), Some(PathBuf::from("/srv/dist/app.js")));
        assert_eq!(file_for(dist, "/../Cargo.toml"), None);
        assert_eq!(file_for(dist, "/pkg/../../x"), None);
        assert_eq!(mime(Path::new("a.wasm")), "application/wasm");
    }
}
