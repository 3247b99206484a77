//! `droidflame`: Android traces in, folded stacks, summary JSON or a rendered report out.
//! Only translation between files and `droidflame-core`; no trace knowledge lives here.

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use droidflame_core::products::{
    self, CallGraphOptions, CallQuery, ChangeOf, Code, DiffGraphOptions, DiffOptions, ExportOptions, FoldedOptions,
    GroupTest, RunOptions, Stat, Transform, TreeFormat, TreeOptions, View, Widths,
};
use droidflame_core::{Clock, Options};
use std::path::PathBuf;
use std::process::ExitCode;

mod heap;
mod input;
mod output;
mod runs;

use input::{analyze, analyze_mapped, deobfuscate, MappingArg, SourceArg};
use output::{print, stdout_stream, write_text, write_to};

#[derive(Parser)]
#[command(
    name = "droidflame",
    version,
    about = "Flame graphs and profiles from Android traces (method traces, atrace/systrace, Perfetto, simpleperf) and heap dumps, on your machine."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print folded stacks (`frame;frame;frame value`, value = self time in µs).
    Folded {
        /// The trace, or a split trace's .key and .data files.
        #[arg(required = true, num_args = 1..=2)]
        trace: Vec<PathBuf>,
        /// Clock to measure with (default: wall where the trace has it; cpu, on-CPU time, for CPU samples).
        #[arg(long, value_enum)]
        clock: Option<ClockArg>,
        /// Only this thread id, without the thread frame.
        #[arg(long)]
        thread: Option<u32>,
        #[command(flatten)]
        view: ViewArgs,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// Print the call tree, top-down (bottom-up with `--invert`): one row per node, children
    /// by total descending; depth 0 is the thread; total and self in µs.
    Tree {
        #[arg(required = true, num_args = 1..=2)]
        trace: Vec<PathBuf>,
        /// Only this thread id.
        #[arg(long)]
        thread: Option<u32>,
        #[arg(long, value_enum)]
        clock: Option<ClockArg>,
        /// `text`: aligned for reading; `tsv`: `depth total self frame`, with a header line.
        #[arg(long, value_enum, default_value = "text")]
        format: TreeFormatArg,
        #[command(flatten)]
        view: ViewArgs,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// List the frames apps produced (a Perfetto frame timeline's), tab-separated:
    /// pid, layer, token, start_us, dur_us, expected_dur_us, jank, present.
    Frames {
        #[arg(required = true, num_args = 1..=2)]
        trace: Vec<PathBuf>,
        /// Only this process's frames.
        #[arg(long)]
        pid: Option<u32>,
        /// Only janky frames.
        #[arg(long)]
        jank_only: bool,
        /// The compositor's display frames instead of apps' frames (their layer is empty).
        #[arg(long)]
        display: bool,
        /// Without a frame timeline: frames derived from apps' Choreographer#doFrame and
        /// RenderThread DrawFrame slices, janky past one display refresh.
        #[arg(long)]
        derived: bool,
    },
    /// Print the summary JSON (schema 1).
    Summary {
        #[arg(required = true, num_args = 1..=2)]
        trace: Vec<PathBuf>,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// Write summary.json, one flame-graph SVG per thread and an index.html into DIR.
    Render {
        #[arg(required = true, num_args = 1..=2)]
        trace: Vec<PathBuf>,
        /// Output folder (created if missing).
        #[arg(short, long)]
        output: PathBuf,
        #[arg(long, value_enum)]
        clock: Option<ClockArg>,
        #[command(flatten)]
        view: ViewArgs,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// List calls, one per line: `tid depth start_us end_us wall_us cpu_us frame`
    /// (tab-separated; µs from the start of the trace's timeline).
    Calls {
        #[arg(required = true, num_args = 1..=2)]
        trace: Vec<PathBuf>,
        /// Only this thread id.
        #[arg(long)]
        thread: Option<u32>,
        /// Only calls of this method or slice (its name as listed, e.g. `java.lang.Object.wait`).
        #[arg(long)]
        method: Option<String>,
        /// Only calls that end at or after this time (µs from the timeline's start).
        #[arg(long, value_name = "US")]
        from: Option<u64>,
        /// Only calls that start at or before this time (µs from the timeline's start).
        #[arg(long, value_name = "US")]
        to: Option<u64>,
        /// The N calls with the longest wall time, longest first, instead of all in start order.
        #[arg(long, value_name = "N")]
        longest: Option<usize>,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// Compare two traces, or two groups of runs (`--before FILE... --after FILE...`):
    /// differential folded stacks (`stack before_us after_us`, self time; the first frame is
    /// the thread's name, so threads match across runs; for groups, each stack's median over
    /// each group's runs), a table of methods, or a differential flame graph.
    Diff {
        /// The trace before the change.
        #[arg(required_unless_present = "before_runs", conflicts_with_all = ["before_runs", "after_runs"])]
        before: Option<PathBuf>,
        /// The trace after it.
        #[arg(required_unless_present = "before_runs")]
        after: Option<PathBuf>,
        /// Runs before the change (one trace file each): with `--after`, two groups of runs
        /// of one scenario are compared.
        #[arg(long = "before", value_name = "FILE", num_args = 1.., requires = "after_runs")]
        before_runs: Vec<PathBuf>,
        /// Runs after the change.
        #[arg(long = "after", value_name = "FILE", num_args = 1.., requires = "before_runs")]
        after_runs: Vec<PathBuf>,
        /// Groups, `--format methods`: the false-discovery rate at which a method's change
        /// is called significant (Benjamini-Hochberg over every method tested).
        #[arg(long, default_value_t = products::DEFAULT_ALPHA)]
        alpha: f64,
        /// Groups, `--format methods`: test each run's share of its threads' time instead
        /// of its µs (for runs of different lengths).
        #[arg(long)]
        share: bool,
        /// Clock to compare on (default: wall where both traces have it; cpu for two sample files).
        #[arg(long, value_enum)]
        clock: Option<ClockArg>,
        /// `folded`: differential stacks; `methods`: per-method calls, inclusive and
        /// exclusive time before and after, by change (tab-separated, with a header; for
        /// groups, each side's medians and spread, a Mann-Whitney U test's p-value, its
        /// q-value and whether the change is significant, significant rows first);
        /// `svg`: a differential flame graph (red grew, blue shrank; see `--colour`).
        #[arg(long, value_enum, default_value = "folded")]
        format: DiffFormat,
        /// Only the threads of this name (e.g. `main`), on both sides.
        #[arg(long, value_name = "NAME")]
        thread: Option<String>,
        /// The graph's frames are as wide as this side's time.
        #[arg(long, value_enum, default_value = "after")]
        widths: WidthsArg,
        /// Scale the other side to the same total before colouring the graph: colours then
        /// show changes in share, not in µs (two runs rarely last equally long).
        #[arg(long)]
        normalize: bool,
        /// What a frame's colour in the graph measures: the change of its own time (`self`)
        /// or of its time with everything it calls (`total`), against the other side; changes
        /// within 5% are grey.
        #[arg(long, value_enum, default_value = "self")]
        colour: ColourArg,
        /// Output file; `-` (the default) for standard output.
        #[arg(short, long, default_value = "-")]
        output: PathBuf,
        /// An R8/ProGuard mapping.txt for both traces; give it twice for two builds (the
        /// first for BEFORE, the second for AFTER).
        #[arg(long, value_name = "FILE", num_args = 1, action = clap::ArgAction::Append)]
        mapping: Vec<PathBuf>,
        #[command(flatten)]
        source: SourceArg,
        #[command(flatten)]
        view: ViewArgs,
    },
    /// Aggregate many runs of one scenario (one trace file each): each stack's median (or
    /// mean, or sum) over the runs as folded stacks (the thread's name first), or a summary
    /// JSON of every method's medians, spread and per-run values.
    Merge {
        /// The runs.
        #[arg(required = true, num_args = 1..)]
        traces: Vec<PathBuf>,
        /// `folded`: stacks with `--stat`'s value; `summary`: JSON of runs, threads and methods.
        #[arg(long, value_enum, default_value = "folded")]
        format: MergeFormat,
        /// A stack's value over the runs: `median` (a typical run; a run without the stack
        /// counts 0), `mean` or `sum`.
        #[arg(long, value_enum, default_value = "median")]
        stat: StatArg,
        #[arg(long, value_enum)]
        clock: Option<ClockArg>,
        /// Only the threads of this name (e.g. `main`).
        #[arg(long, value_name = "NAME")]
        thread: Option<String>,
        /// Output file; `-` (the default) for standard output.
        #[arg(short, long, default_value = "-")]
        output: PathBuf,
        #[command(flatten)]
        mapping: MappingArg,
        #[command(flatten)]
        view: ViewArgs,
    },
    /// Write the call graph as Graphviz DOT (`dot -Tsvg FILE.dot`): each thread's call
    /// paths with inclusive and exclusive time and calls, calls worth less than the
    /// threshold of their caller's time left out.
    Callgraph {
        #[arg(required = true, num_args = 1..=2)]
        trace: Vec<PathBuf>,
        /// Only this thread id.
        #[arg(long)]
        thread: Option<u32>,
        /// Leave out calls worth less than this percentage of their caller's inclusive time.
        #[arg(long, value_name = "PCT", default_value_t = products::DEFAULT_THRESHOLD_PERCENT)]
        threshold: f64,
        #[arg(long, value_enum)]
        clock: Option<ClockArg>,
        /// Output file; `-` for standard output.
        #[arg(short, long)]
        output: PathBuf,
        #[command(flatten)]
        mapping: MappingArg,
    },
    /// A heap dump's tables: classes, objects, an object's path from a GC root, leaks, and
    /// two dumps compared.
    Heap {
        #[command(subcommand)]
        command: heap::HeapCommand,
    },
    /// Write the trace as a file other viewers open.
    Export {
        #[arg(required = true, num_args = 1..=2)]
        trace: Vec<PathBuf>,
        /// `chrome`: every call as Chrome trace-event JSON (Perfetto UI, chrome://tracing,
        /// Firefox Profiler), in the transforms' view as a timeline shows it; `speedscope`: the view's stacks, one profile per thread, on
        /// one clock; `pprof`: the view's stacks as gzipped profile.proto, a value per clock.
        #[arg(long, value_enum)]
        format: ExportFormat,
        /// Output file; `-` for standard output.
        #[arg(short, long)]
        output: PathBuf,
        /// speedscope's clock (default: the trace's).
        #[arg(long, value_enum)]
        clock: Option<ClockArg>,
        #[command(flatten)]
        view: ViewArgs,
        #[command(flatten)]
        mapping: MappingArg,
    },
}

/// The transforms, applied in the order given, then `--invert`. Frames are named as
/// folded stacks name them; the thread frame is never transformed.
#[derive(clap::Args)]
struct ViewArgs {
    /// Take every frame of this name out of every stack; its time goes to its caller.
    #[arg(long, value_name = "FRAME")]
    merge: Vec<String>,
    /// Keep only stacks through this frame, each cut to begin at its outermost one.
    #[arg(long, value_name = "FRAME")]
    focus: Vec<String>,
    /// Leave out stacks through this frame.
    #[arg(long, value_name = "FRAME")]
    drop: Vec<String>,
    /// Take out everything after this frame's outermost call up to its innermost
    /// (`A;F;B;F;C` becomes `A;F;C`).
    #[arg(long, value_name = "FRAME")]
    collapse_recursion: Vec<String>,
    /// Make the frames whose names begin with this (`android.`) one frame (`android.*`)
    /// wherever they call each other.
    #[arg(long, value_name = "PREFIX")]
    collapse_package: Vec<String>,
    /// Make the frames of this native library (`libc.so`, `[kernel.kallsyms]`) one frame
    /// wherever they call each other.
    #[arg(long, value_name = "FILE")]
    collapse_library: Vec<String>,
    /// Take every frame of this kind of code out of every stack, its time going to its
    /// caller: `kernel` (the `_[k]` frames) or `native` (frames of `*.so` libraries).
    #[arg(long, value_name = "CODE", value_parser = ["kernel", "native"])]
    hide: Vec<String>,
    /// Reverse each stack after the transforms, leaf first: the bottom-up tree.
    #[arg(long)]
    invert: bool,
}

/// The transforms of a subcommand's `ViewArgs`, in the order they were given.
fn view_of(matches: &ArgMatches) -> View {
    let mut given: Vec<(usize, Transform)> = Vec::new();
    type Make = fn(String) -> Transform;
    let kinds: [(&str, Make); 6] = [
        ("merge", Transform::Merge),
        ("focus", Transform::Focus),
        ("drop", Transform::Drop),
        ("collapse_recursion", Transform::CollapseRecursion),
        ("collapse_package", Transform::CollapsePackage),
        ("collapse_library", Transform::CollapseLibrary),
    ];
    for (id, make) in kinds {
        let (Some(at), Some(names)) = (matches.indices_of(id), matches.get_many::<String>(id)) else { continue };
        given.extend(at.zip(names.cloned().map(make)));
    }
    if let (Some(at), Some(codes)) = (matches.indices_of("hide"), matches.get_many::<String>("hide")) {
        let code = |name: &String| if name == "kernel" { Code::Kernel } else { Code::Native };
        given.extend(at.zip(codes.map(|name| Transform::Hide(code(name)))));
    }
    given.sort_by_key(|(at, _)| *at);
    View { transforms: given.into_iter().map(|(_, t)| t).collect(), invert: matches.get_flag("invert") }
}

#[derive(Clone, Copy, ValueEnum)]
enum TreeFormatArg {
    Text,
    Tsv,
}

/// `--mapping FILE`, `--source NAME`, `--dump N`: how to read the trace's stacks.
#[derive(Clone, Copy, ValueEnum)]
enum ExportFormat {
    Chrome,
    Speedscope,
    Pprof,
}

#[derive(Clone, Copy, ValueEnum)]
enum DiffFormat {
    Folded,
    Methods,
    Svg,
}

#[derive(Clone, Copy, ValueEnum)]
enum MergeFormat {
    Folded,
    Summary,
}

#[derive(Clone, Copy, ValueEnum)]
enum StatArg {
    Median,
    Mean,
    Sum,
}

#[derive(Clone, Copy, ValueEnum)]
enum WidthsArg {
    After,
    Before,
}

#[derive(Clone, Copy, ValueEnum)]
enum ColourArg {
    #[value(name = "self")]
    OwnTime,
    Total,
}

impl From<ColourArg> for ChangeOf {
    fn from(c: ColourArg) -> ChangeOf {
        match c {
            ColourArg::OwnTime => ChangeOf::SelfTime,
            ColourArg::Total => ChangeOf::TotalTime,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum ClockArg {
    Wall,
    Cpu,
}

impl From<WidthsArg> for Widths {
    fn from(w: WidthsArg) -> Widths {
        match w {
            WidthsArg::After => Widths::After,
            WidthsArg::Before => Widths::Before,
        }
    }
}

impl From<ClockArg> for Clock {
    fn from(c: ClockArg) -> Clock {
        match c {
            ClockArg::Wall => Clock::Wall,
            ClockArg::Cpu => Clock::Cpu,
        }
    }
}

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("droidflame: internal error: {info} (please report this with the trace that caused it)");
    }));
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // The order of the transform flags matters, and only the matches keep it.
    let view = match matches.subcommand() {
        Some(("folded" | "tree" | "render" | "diff" | "export" | "merge", sub)) => view_of(sub),
        _ => View::default(),
    };
    match run(cli, view) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("droidflame: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli, view: View) -> Result<(), String> {
    match cli.command {
        Command::Folded { trace, clock, thread, view: _, mapping } => {
            let profile = analyze_mapped(&trace, Options::default(), &mapping)?;
            let options = FoldedOptions { clock: clock.map(Into::into), thread, view, ..FoldedOptions::default() };
            // Streamed: folded text can be far larger than the profile it comes from.
            stdout_stream(|out| products::write_folded(&profile.profile, &options, out))
        }
        Command::Calls { trace, thread, method, from, to, longest, mapping } => {
            let profile = analyze_mapped(&trace, with_calls(), &mapping)?;
            let query = CallQuery { thread, frame: method, from_us: from, to_us: to, longest };
            if !profile.profile.has(Clock::Wall) {
                eprintln!(
                    "droidflame: this trace has only a thread-CPU clock: start and end are on each thread's own CPU clock"
                );
            }
            stdout_stream(|out| products::write_calls(&profile.profile, &query, out))
        }
        Command::Export { trace, format: ExportFormat::Chrome, output, clock: _, view: _, mapping } => {
            if view.invert {
                return Err(
                    "the chrome export is a timeline, which has no bottom-up: --invert applies to speedscope and pprof"
                        .into(),
                );
            }
            let profile = analyze_mapped(&trace, with_calls(), &mapping)?;
            write_to(&output, |mut out| products::write_chrome_trace(&profile.profile, &view, &mut out))
        }
        Command::Export { trace, format, output, clock, view: _, mapping } => {
            let profile = analyze_mapped(&trace, Options::default(), &mapping)?;
            let options = ExportOptions { clock: clock.map(Into::into), view };
            write_to(&output, |mut out| match format {
                ExportFormat::Pprof => products::write_pprof(&profile.profile, &options, &mut out),
                _ => products::write_speedscope(&profile.profile, &options, &mut out),
            })
        }
        Command::Tree { trace, thread, clock, format, view: _, mapping } => {
            let profile = analyze_mapped(&trace, Options::default(), &mapping)?;
            let format = match format {
                TreeFormatArg::Text => TreeFormat::Text,
                TreeFormatArg::Tsv => TreeFormat::Tsv,
            };
            let options = TreeOptions { clock: clock.map(Into::into), thread, view, format, ..TreeOptions::default() };
            stdout_stream(|out| products::write_tree(&profile.profile, &options, out))
        }
        Command::Merge { traces, format, stat, clock, thread, output, mapping, view: _ } => {
            let options = RunOptions { clock: clock.map(Into::into), thread, view, ..RunOptions::default() };
            let stat = match (format, stat) {
                (MergeFormat::Summary, _) => None,
                (_, StatArg::Median) => Some(Stat::Median),
                (_, StatArg::Mean) => Some(Stat::Mean),
                (_, StatArg::Sum) => Some(Stat::Sum),
            };
            let reading = runs::RunReading { options, source: &mapping.source };
            runs::merge(&traces, reading, mapping.path.as_deref(), &output, stat)
        }
        Command::Diff {
            before_runs,
            after_runs,
            alpha,
            share,
            clock,
            format,
            thread,
            widths,
            normalize,
            colour,
            output,
            mapping,
            source,
            ..
        } if !before_runs.is_empty() => {
            let options =
                RunOptions { clock: clock.map(Into::into), thread: thread.clone(), view, ..RunOptions::default() };
            let what = match format {
                DiffFormat::Folded => runs::GroupOutput::Folded,
                DiffFormat::Methods => runs::GroupOutput::Methods(GroupTest { alpha, share }),
                DiffFormat::Svg => runs::GroupOutput::Svg(DiffGraphOptions {
                    thread,
                    widths: widths.into(),
                    normalize,
                    colour: colour.into(),
                    ..DiffGraphOptions::default()
                }),
            };
            let reading = runs::RunReading { options, source: &source };
            runs::diff([&before_runs, &after_runs], reading, &mapping, &output, what)
        }
        Command::Diff {
            before,
            after,
            clock,
            format,
            thread,
            widths,
            normalize,
            colour,
            output,
            mapping,
            source,
            ..
        } => {
            let (Some(before), Some(after)) = (before, after) else {
                return Err("give two traces, or groups of runs with --before FILE... --after FILE...".into());
            };
            let mut sides = [analyze(&[before], Options::default())?, analyze(&[after], Options::default())?];
            for side in &mut sides {
                source.select(side)?;
            }
            match mapping.as_slice() {
                [] => {}
                [both] => deobfuscate(&mut sides, both)?,
                [for_before, for_after] => {
                    let [before, after] = &mut sides;
                    deobfuscate(std::slice::from_mut(before), for_before)?;
                    deobfuscate(std::slice::from_mut(after), for_after)?;
                }
                _ => return Err("give --mapping once (both traces) or twice (before, then after)".into()),
            }
            let options =
                DiffOptions { clock: clock.map(Into::into), thread: thread.clone(), view, ..DiffOptions::default() };
            let comparison = products::compare(&sides[0], &sides[1], &options).map_err(|e| e.to_string())?;
            for warning in &comparison.warnings {
                eprintln!("droidflame: warning: {warning}");
            }
            match format {
                DiffFormat::Folded => write_to(&output, |mut out| products::write_diff_folded(&comparison, &mut out)),
                DiffFormat::Methods => {
                    let rows = products::method_deltas(
                        &sides[0].profile,
                        &sides[1].profile,
                        comparison.clock,
                        thread.as_deref(),
                        &options.view,
                    )
                    .map_err(|e| e.to_string())?;
                    write_to(&output, |mut out| products::write_method_deltas(&rows, &mut out))
                }
                DiffFormat::Svg => {
                    let graph = DiffGraphOptions {
                        thread,
                        widths: widths.into(),
                        normalize,
                        colour: colour.into(),
                        ..DiffGraphOptions::default()
                    };
                    let svg = products::diff_svg(&comparison, &graph).map_err(|e| e.to_string())?;
                    write_text(&output, &svg)
                }
            }
        }
        Command::Callgraph { trace, thread, threshold, clock, output, mapping } => {
            let profile = analyze_mapped(&trace, Options::default(), &mapping)?;
            let options = CallGraphOptions {
                thread,
                threshold_percent: threshold,
                clock: clock.map(Into::into),
                ..CallGraphOptions::default()
            };
            write_to(&output, |mut out| products::write_callgraph_dot(&profile.profile, &options, &mut out))
        }
        Command::Frames { trace, pid, jank_only, display, derived } => {
            let profile = analyze(&trace, Options::default())?;
            let query = products::FramesQuery { pid, jank_only, display, derived };
            stdout_stream(|out| products::write_frames(&profile.profile.system, &query, out))
        }
        Command::Heap { command } => heap::run(command),
        Command::Summary { trace, mapping } => {
            let profile = analyze_mapped(&trace, Options::default(), &mapping)?;
            print(&(products::summary_json(&profile) + "\n"))
        }
        Command::Render { trace, output, clock, view: _, mapping } => {
            let profile = analyze_mapped(&trace, Options::default(), &mapping)?;
            let files = products::render_site(&profile, clock.map(Into::into), &view).map_err(|e| e.to_string())?;
            std::fs::create_dir_all(&output).map_err(|e| format!("cannot create {}: {e}", output.display()))?;
            for file in &files {
                let path = output.join(&file.name);
                std::fs::write(&path, &file.contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            eprintln!(
                "wrote {} files to {}; open {}",
                files.len(),
                output.display(),
                output.join("index.html").display()
            );
            Ok(())
        }
    }
}

/// Every call kept, for the commands that list them, however many there are: they are
/// written out, not drawn.
fn with_calls() -> Options {
    Options { keep_calls: true, max_calls: u64::MAX, ..Options::default() }
}
