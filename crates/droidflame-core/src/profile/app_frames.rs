//! Frames an app produced, as a compositor's frame timeline records them: when each was
//! expected and when it really ran, and whether it was janky, in the recorder's words.

/// The name Android gives each app's rendering thread.
pub const RENDER_THREAD: &str = "RenderThread";

/// One app frame (a surface frame of one layer), or one of the compositor's display frames
/// (which have no layer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppFrame {
    /// The app's process.
    pub pid: u32,
    /// The layer it was drawn for (`com.example/com.example.MainActivity#0`); empty for a
    /// display frame.
    pub layer: String,
    /// The frame's token (the vsync id the app drew it for).
    pub token: i64,
    /// The token of the display frame that presented it, where the trace says (an app
    /// frame's; display frames have none).
    pub display_token: Option<i64>,
    /// When it started, in the profile's timeline ticks.
    pub start: u64,
    /// When it ended; `None` for a frame the trace never ends (kept, and marked).
    pub end: Option<u64>,
    /// When it was expected to start and end, where the trace says.
    pub expected: Option<(u64, u64)>,
    /// Its jank types in the recorder's words, joined with `, ` (`None` for on time).
    pub jank: String,
    /// Whether any jank type is set.
    pub janky: bool,
    /// How it was presented (`On-time Present`, `Late Present`, …).
    pub present: String,
    /// It finished on time.
    pub on_time_finish: bool,
    /// It was composed on the GPU.
    pub gpu_composition: bool,
    /// Whether the prediction of its deadline was valid (`Valid Prediction`, …).
    pub prediction: String,
    /// Derived from an app's slices (the trace has no frame timeline), not recorded: its
    /// deadline is one display refresh, and present and prediction are unknown (empty).
    pub derived: bool,
}

impl AppFrame {
    /// How long it ran, in ticks; `None` while it never ended.
    pub fn duration(&self) -> Option<u64> {
        self.end.map(|end| end.saturating_sub(self.start))
    }

    /// How long it was expected to run, in ticks.
    pub fn expected_duration(&self) -> Option<u64> {
        self.expected.map(|(start, end)| end.saturating_sub(start))
    }
}
