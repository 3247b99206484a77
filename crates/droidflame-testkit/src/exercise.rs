//! One way to put any input through the whole core, shared by the damage tests, the corpus
//! tests and the fuzzer: analysed in chunks with every call kept, then every product made.
//! And what a damaged copy of a whole input must give: an error that names the problem,
//! or a profile that reports no more than the whole input did unless a repair counts the
//! difference.

use droidflame_core::products::{self, CallQuery, FlameOptions, FoldedOptions, FramesQuery, GraphScope};
use droidflame_core::profile::Repair;
use droidflame_core::{Analysis, Analyzer, Clock, Error, ErrorKind, Options, Profile, SourceKind};

/// Graphs are drawn for profiles up to this many records (larger ones cost the test time
/// and add nothing the smaller ones do not reach).
const GRAPH_RECORDS: u64 = 20_000;

/// Analyses `bytes` fed in chunks of `chunk` bytes, with every call kept, and makes every
/// product; a product that must work on any profile and fails panics with its error.
pub fn exercise(bytes: &[u8], chunk: usize) -> Result<Analysis, Error> {
    let mut analysis = analyze_in_chunks(bytes, chunk, Options { keep_calls: true, ..Options::default() })?;
    make_every_product(&analysis);
    // Every other source the trace has, and a heap profile's first dump: each must show.
    let kinds: Vec<_> = analysis.profile.sources().iter().map(|s| s.kind).collect();
    for &kind in kinds.iter().skip(1) {
        analysis.profile.select_source(kind).unwrap_or_else(|e| panic!("a source the trace lists failed: {e}"));
        make_every_product(&analysis);
    }
    if analysis.profile.dumps().is_some_and(|(_, count)| count > 1) {
        analysis.profile.select_dump(0).unwrap_or_else(|e| panic!("a dump the trace has failed: {e}"));
        make_every_product(&analysis);
    }
    if let Some(&first) = kinds.first() {
        analysis.profile.select_source(first).unwrap_or_else(|e| panic!("the first source failed: {e}"));
    }
    Ok(analysis)
}

/// Analyses `bytes` fed in chunks of `chunk` bytes.
pub fn analyze_in_chunks(bytes: &[u8], chunk: usize, options: Options) -> Result<Analysis, Error> {
    let mut analyzer = Analyzer::new(options);
    for piece in bytes.chunks(chunk.max(1)) {
        analyzer.push(piece)?;
    }
    analyzer.finish()
}

/// Makes every product of `analysis`. Those that work on any profile must not fail; the
/// rest (a clock the trace lacks, a listing of calls left out) may refuse.
pub fn make_every_product(analysis: &Analysis) {
    // A product may refuse a profile whose numbers are damaged beyond drawing (times that
    // add up to centuries), saying so; any other failure is a defect.
    let must = |what: &str, result: droidflame_core::Result<String>| match result {
        Err(error) if error.kind() != ErrorKind::Corrupt => panic!("{what} failed on a profile that was read: {error}"),
        _ => {}
    };
    products::summary_json(analysis);
    products::frame_table(&analysis.profile);
    must("methods of every thread", products::methods_json(&analysis.profile, None));
    if !analysis.profile.stacks().threads.is_empty() {
        must("methods of thread 0", products::methods_json(&analysis.profile, Some(0)));
    }
    must("folded stacks", products::folded(&analysis.profile, &FoldedOptions::default()));
    for clock in [Clock::Wall, Clock::Cpu].into_iter().filter(|&c| analysis.profile.has(c)) {
        must("folded stacks on a clock it has", products::folded(&analysis.profile, &folded_on(clock)));
    }
    // One thread, with the depth merge at a depth small traces reach.
    let thread = analysis.profile.stacks().threads.first().map(|t| t.tid);
    must(
        "folded stacks merged at depth 3",
        products::folded(&analysis.profile, &FoldedOptions { thread, max_depth: 3, ..Default::default() }),
    );
    for thread in &analysis.profile.stacks().threads {
        for (_, call) in thread.calls.iter() {
            assert!(call.start <= call.end, "a call of {} ends before it starts", thread.label());
        }
    }
    let _ = products::write_calls(&analysis.profile, &CallQuery::default(), &mut std::io::sink());
    let _ = products::write_calls(
        &analysis.profile,
        &CallQuery { longest: Some(5), ..Default::default() },
        &mut std::io::sink(),
    );
    let _ = products::write_chrome_trace(&analysis.profile, &products::View::default(), &mut std::io::sink());
    frames_and_states(&analysis.profile);
    if analysis.profile.heap_graph.is_some() {
        heap_tables(&analysis.profile);
    }
    if analysis.profile.facts.records < GRAPH_RECORDS {
        must(
            "every thread's flame graph",
            products::flame_svg(&analysis.profile, GraphScope::AllThreads, &FlameOptions::default()),
        );
        if !analysis.profile.stacks().threads.is_empty() {
            let shallow = FlameOptions { max_depth: 2, ..Default::default() };
            must("a shallow flame graph", products::flame_svg(&analysis.profile, GraphScope::Thread(0), &shallow));
        }
    }
}

/// A heap dump's tables: each must be made, whatever the dump held.
fn heap_tables(p: &Profile) {
    let sink = &mut std::io::sink();
    let classes = products::heap_classes(p, None).unwrap_or_else(|e| fail("the class table", e));
    products::write_classes(&classes, sink).unwrap();
    let query = products::ObjectQuery { top: Some(20), ..Default::default() };
    let objects = products::heap_objects(p, &query).unwrap_or_else(|e| fail("the objects table", e));
    products::write_objects(&objects, sink).unwrap();
    for object in objects.iter().take(5) {
        let path = products::heap_path(p, object.id).unwrap_or_else(|e| fail("a reachable object's path", e));
        assert_eq!(path.last().map(|s| s.id), Some(object.id), "a path ends at its object");
        products::write_path(&path, sink).unwrap();
    }
    let leaks = products::heap_leaks(p).unwrap_or_else(|e| fail("the leaks", e));
    products::write_leaks(&leaks, sink).unwrap();
    products::write_leak_groups(&products::group_leaks(&leaks), sink).unwrap();
    let changes = products::heap_diff(p, p).unwrap_or_else(|e| fail("a dump against itself", e));
    assert!(changes.iter().all(|c| c.before == c.after), "a dump differs from itself");
}

fn fail<T>(what: &str, e: Error) -> T {
    panic!("{what} failed on a heap dump that was read: {e}")
}

/// App frames, threads' states, CPU lanes and counters, as the timeline and the Frames view
/// ask for them: each must hold together whatever the input.
fn frames_and_states(p: &Profile) {
    for query in [FramesQuery::default(), FramesQuery { display: true, ..FramesQuery::default() }] {
        let _ = products::write_frames(&p.system, &query, &mut std::io::sink());
    }
    let _ = products::write_frames(
        &p.system,
        &FramesQuery { derived: true, ..FramesQuery::default() },
        &mut std::io::sink(),
    );
    let layers = products::frame_layers(&p.system);
    assert_eq!(layers.iter().filter(|l| !l.display).map(|l| l.frames).sum::<u64>(), p.system.app_frames.len() as u64);
    for f in p.system.app_frames.iter().chain(&p.system.display_frames) {
        assert!(f.end.is_none_or(|end| end >= f.start), "a frame ends before it starts");
    }
    let _ = products::frames_json(p);
    let length = p.system.micros_at(p.system.timeline.end);
    for (index, t) in p.stacks().threads.iter().enumerate().take(8) {
        if t.states.is_empty() {
            continue;
        }
        let mut last = 0.0f64;
        for b in products::state_boxes(&p.system, p.stacks(), index, 0.0, length, 200) {
            assert!(b.start_us <= b.end_us && b.start_us >= last - 1e-6, "state boxes out of order");
            last = b.end_us;
        }
        let _ = products::state_at(&p.system, p.stacks(), index, length / 2.0)
            .map(|s| products::state_json(&p.system, p.stacks(), &s));
        let whole = t.states.times(0, u64::MAX).sched();
        if let Some(sched) = t.sched {
            assert_eq!(whole, sched, "a thread's states add up to other totals than its own");
        }
    }
    let with_states = p.states_stacks().map_or(0, |s| s.threads.len());
    for b in products::cpu_boxes(p, 0.0, length, 300).into_iter().chain(products::cpu_boxes(
        p,
        length / 3.0,
        length / 2.0,
        300,
    )) {
        assert!(b.cpu < p.system.cpus && b.start_us <= b.end_us && b.thread < with_states);
    }
    for cpu in 0..p.system.cpus.min(4) {
        let _ = products::cpu_at_json(&p.system, p.stacks(), cpu, length / 2.0);
    }
    for counter in 0..p.system.counters.len().min(4) {
        for s in products::counter_steps(&p.system, counter, 0.0, length, 100) {
            assert!(s.start_us <= s.end_us && s.min <= s.max);
        }
        let _ = products::counter_at(&p.system, counter, length / 2.0);
    }
}

fn folded_on(clock: Clock) -> FoldedOptions {
    FoldedOptions { clock: Some(clock), thread: None, ..Default::default() }
}

/// How a damaged input came about, for what its result must show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    /// The input ends early, at this many bytes of the whole.
    CutAt(usize),
    /// The input ends early, at this many bytes of an input made of parts each whole in
    /// itself (a capture of several compressed dumps): a cut between two parts cannot be
    /// told from the end.
    CutBetweenParts(usize),
    /// Bytes were changed or added.
    Changed,
}

/// Checks what a damaged copy of `whole_bytes` gave (`damaged`), against what the whole
/// gave (`whole`):
/// - an error is of a kind damage causes (never a request error) and says what is wrong;
/// - a profile reports no more records than the whole one, unless it counts some repair
///   more often than the whole one did (garbage read as records is reported, not passed
///   off);
/// - a cut that the format can tell (binary method traces and samples know their length,
///   compressed data its end) is marked as truncated where records were lost.
pub fn assert_damage_told(
    case: &str,
    whole_bytes: &[u8],
    whole: &Analysis,
    damage: Damage,
    damaged: &Result<Analysis, Error>,
) {
    let profile = match damaged {
        Err(error) => {
            let damage_kinds = [
                ErrorKind::NotATrace,
                ErrorKind::Unsupported,
                ErrorKind::Truncated,
                ErrorKind::Corrupt,
                ErrorKind::Limit,
            ];
            assert!(damage_kinds.contains(&error.kind()), "{case}: an error of kind {:?}: {error}", error.kind());
            assert!(
                error.message().split_whitespace().count() >= 3,
                "{case}: the error does not say what is wrong: {error}"
            );
            return;
        }
        Ok(analysis) => &analysis.profile,
    };
    let more = profile.facts.records > whole.profile.facts.records;
    match damage {
        Damage::CutBetweenParts(_) => {
            assert!(!more, "{case}: {} records of {}", profile.facts.records, whole.profile.facts.records);
        }
        Damage::CutAt(cut) => {
            assert!(
                !more || draws_states(profile) && !draws_states(&whole.profile),
                "{case}: {} records of {}",
                profile.facts.records,
                whole.profile.facts.records
            );
            if profile.facts.records < whole.profile.facts.records
                && cut < whole_bytes.len()
                && cut_is_detectable(&whole.profile)
            {
                assert!(
                    profile.facts.repairs.truncated,
                    "{case}: {} of {} records and not marked truncated",
                    profile.facts.records, whole.profile.facts.records
                );
            }
        }
        Damage::Changed => assert!(
            !more || tells_more(profile, &whole.profile),
            "{case}: {} records where the whole input has {}, and no repair says why",
            profile.facts.records,
            whole.profile.facts.records
        ),
    }
}

/// Whether `profile` counts some repair more often than `whole` does. (A warning of its
/// own is not enough: many carry numbers that any change of the input changes.)
fn tells_more(profile: &Profile, whole: &Profile) -> bool {
    Repair::ALL.iter().any(|&r| profile.facts.repairs.count(r) > whole.facts.repairs.count(r))
}

/// Whether a system trace's frames are its threads' scheduler states (it has no slices).
fn draws_states(profile: &Profile) -> bool {
    profile.stacks_of(SourceKind::Calls).is_some_and(|calls| calls.states_as_frames)
}
/// Whether a cut in the middle of this input must show as `repairs.truncated`: where the
/// input says where it ends (`FormatInfo::ends_known`: a record count or closing summary,
/// an end marker, a compressed stream's end). Plain text can end after any line.
pub fn cut_is_detectable(whole: &Profile) -> bool {
    whole.facts.format.ends_known
}
