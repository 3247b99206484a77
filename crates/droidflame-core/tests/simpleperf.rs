//! simpleperf report-sample files: the corpus files with the counts their SOURCES.md rows
//! give.

use droidflame_core::products::{self, FoldedOptions};
use droidflame_core::profile::Clock;
use droidflame_core::Analysis;
use droidflame_core::{analyze, ClockSet, Profile};
use droidflame_testkit::corpus_file;

fn simpleperf(name: &str) -> Analysis {
    analyze(&corpus_file(&format!("simpleperf/{name}"))).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn thread(p: &Profile, tid: u32) -> &droidflame_core::profile::ThreadProfile {
    p.stacks().threads.iter().find(|t| t.tid == tid).unwrap_or_else(|| panic!("no thread {tid}"))
}

#[test]
fn android_studio_recording_with_off_cpu_samples() {
    if !droidflame_testkit::corpus_present("simpleperf::android_studio_recording_with_off_cpu_samples") {
        return;
    }
    let p = simpleperf("ffprof-simpleperf-cpu-clock.trace");
    assert_eq!(
        (p.profile.facts.format.family, p.profile.facts.format.layout, p.profile.facts.format.version),
        ("simpleperf", "report-sample", 1)
    );
    assert_eq!(p.profile.facts.format.description, "Callstack samples (simpleperf: cpu-clock + off-CPU)");
    // SOURCES.md: 1,234 samples, 927 cpu-clock + 307 sched_switch, 14 sampled tids, one
    // process (pid 7657, its main thread 778 samples), 1.97 s, no lost samples.
    assert_eq!(p.profile.facts.records, 1_234);
    assert_eq!(p.profile.stacks().threads.len(), 14);
    assert!(p.profile.stacks().threads.iter().all(|t| t.pid == Some(7657)));
    assert_eq!(p.profile.header_value("pid"), Some("7657"));
    assert_eq!(p.profile.header_value("trace_offcpu"), Some("true"));
    assert_eq!(p.profile.header_value("context_switches"), Some("902"));
    assert_eq!(p.profile.header_value("lost_count"), Some("0"));
    let main = thread(&p.profile, 7657);
    assert_eq!(main.records, 778);
    assert_eq!(main.name, "com.example.sampleapplication");
    assert_eq!(p.profile.stacks().threads[p.profile.default_thread().unwrap()].tid, 7657);
    for name in ["RenderThread", "HeapTaskDaemon", "Profile Saver", "EmojiCompatInit"] {
        assert!(p.profile.stacks().threads.iter().any(|t| t.name == name), "{name}");
    }
    // Each cpu-clock sample is 250 µs of CPU time: 927 of them.
    assert_eq!(p.profile.stacks().clocks, ClockSet::Dual);
    assert_eq!(p.profile.default_clock(), Clock::Cpu);
    let cpu: u64 = p.profile.stacks().threads.iter().map(|t| t.tree.total_self(Clock::Cpu)).sum();
    assert_eq!(cpu, 927 * 250_000);
    assert_eq!(p.profile.facts.format.sampling_interval_us, Some(250));
    assert_eq!(p.profile.micros(p.profile.system.timeline.length()) / 10_000, 197, "1.97 s");
    // Every sample has a call chain, up to 103 frames deep.
    assert_eq!(p.profile.stacks().threads.iter().map(|t| t.tree.max_depth()).max(), Some(103));
    assert_eq!(p.profile.facts.repairs, Default::default(), "{:?}", p.profile.facts.warnings);
    assert!(p.profile.facts.warnings.is_empty(), "{:?}", p.profile.facts.warnings);
}

#[test]
fn frames_are_java_native_and_kernel() {
    if !droidflame_testkit::corpus_present("simpleperf::frames_are_java_native_and_kernel") {
        return;
    }
    let p = simpleperf("ffprof-simpleperf-cpu-clock.trace");
    let frame = |name: &str| p.profile.frames.iter().find(|f| p.profile.frame_name(frame_index(&p.profile, f)) == name);
    let looper = frame("android.os.Looper.loop").expect("a Java frame");
    assert_eq!((looper.class.as_str(), looper.name.as_str()), ("android.os.Looper", "loop"));
    assert_eq!(looper.source.as_deref(), Some("/system/framework/framework.jar"));
    let native = frame("art::Method_invoke(_JNIEnv*, _jobject*, _jobject*, _jobjectArray*)").expect("a native frame");
    assert_eq!(native.class, "");
    // The kernel has no symbols in this recording: each address is its own frame, marked.
    let kernel =
        p.profile.frame_names.iter().filter(|n| n.starts_with("[kernel.kallsyms]+0x") && n.ends_with("_[k]")).count();
    assert!(kernel > 100, "{kernel}");
    let folded = products::folded(&p.profile, &FoldedOptions::default()).unwrap();
    assert!(folded.lines().all(|l| l.starts_with(|c: char| c != ' ')));
    assert!(folded.contains("com.example.sampleapplication [7657];__libc_init;main;"), "root first");
}

fn frame_index(p: &Profile, f: &droidflame_core::profile::Frame) -> u32 {
    p.frames.iter().position(|g| std::ptr::eq(g, f)).unwrap() as u32
}

#[test]
fn the_gzip_copy_reads_the_same() {
    if !droidflame_testkit::corpus_present("simpleperf::the_gzip_copy_reads_the_same") {
        return;
    }
    let plain = simpleperf("ffprof-simpleperf-cpu-clock.trace");
    let gzip = simpleperf("ffprof-simpleperf-cpu-clock.trace.gz");
    assert!(gzip.profile.facts.format.gzip);
    for clock in Clock::ALL {
        let options = FoldedOptions { clock: Some(clock), ..FoldedOptions::default() };
        assert_eq!(
            products::folded(&plain.profile, &options).unwrap(),
            products::folded(&gzip.profile, &options).unwrap()
        );
    }
}

#[test]
fn aosp_recording_without_off_cpu_samples() {
    if !droidflame_testkit::corpus_present("simpleperf::aosp_recording_without_off_cpu_samples") {
        return;
    }
    let p = simpleperf("aosp-simpleperf-display_bitmaps.proto_data");
    assert_eq!(p.profile.facts.format.description, "Callstack samples (simpleperf: cpu-clock)");
    // SOURCES.md: 525 samples, all cpu-clock; 9 tids in pid 31850; tid 31881 271 samples,
    // the main thread 164; 0.134 s.
    assert_eq!(p.profile.facts.records, 525);
    assert_eq!(p.profile.stacks().threads.len(), 9);
    assert_eq!(thread(&p.profile, 31881).records, 271);
    assert_eq!(thread(&p.profile, 31881).name, "RenderThread");
    assert_eq!(thread(&p.profile, 31850).records, 164);
    assert_eq!(p.profile.micros(p.profile.system.timeline.length()) / 1000, 134);
    let cpu: u64 = p.profile.stacks().threads.iter().map(|t| t.tree.total_self(Clock::Cpu)).sum();
    assert_eq!(cpu, 525 * 250_000);
    // No off-CPU samples: the wall clock counts only time a thread was seen running, which
    // is about its CPU time.
    for t in &p.profile.stacks().threads {
        let (wall, cpu) = (t.tree.total_self(Clock::Wall), t.tree.total_self(Clock::Cpu));
        assert!(wall.abs_diff(cpu) * 10 <= cpu.max(1_000_000), "{}: wall {wall}, cpu {cpu}", t.name);
    }
    // Its Java names are plain (not obfuscated), dex files inside the APK included.
    let worker = p.profile.frames.iter().find(|f| f.name == "loadImage").expect("ImageWorker.loadImage");
    assert_eq!(worker.class, "com.example.android.displayingbitmaps.util.ImageWorker");
    assert!(p.profile.frame_names.iter().any(|n| n == "do_page_fault.cfi_[k]"), "kernel symbols marked");
    assert!(p.profile.frame_names.iter().all(|n| !n.starts_with("_ZN")), "C++ names demangled");
    assert!(p.profile.facts.warnings.is_empty(), "{:?}", p.profile.facts.warnings);
}
