//! A game's rules as a reference in players' words, as plain data: sections, each with an id that
//! lessons link to, its text and small drawn examples (a position, and a move played there).

/// The rules of one game, section by section: "goal" first, "here" (how to play in Stoneyard) last.
#[derive(Clone, Copy, Debug)]
pub struct RulesHelp {
    pub sections: &'static [RulesSection],
}

impl RulesHelp {
    /// The section named `id` (what a lesson's `teaches` says).
    pub fn section(&self, id: &str) -> Option<&'static RulesSection> {
        self.sections.iter().find(|s| s.id == id)
    }

    /// Every example, section by section. The first (the goal's) is also the game's picture on the
    /// title.
    pub fn examples(&self) -> impl Iterator<Item = &'static Illustration> + use<> {
        let sections = self.sections;
        sections.iter().flat_map(|s| s.examples.iter())
    }
}

/// One rule, or a few that belong together.
#[derive(Clone, Copy, Debug)]
pub struct RulesSection {
    /// Lower-case words joined by '-' ("the-turn"): how lessons and the app name the section.
    pub id: &'static str,
    pub heading: &'static str,
    /// The rule in full, in players' words; paragraphs are separated by a blank line.
    pub text: &'static str,
    /// The rule drawn. Every section but "here" has at least one.
    pub examples: &'static [Illustration],
}

/// A rule at work: a position and, usually, a move played there; the picture is drawn before and
/// after the move.
#[derive(Clone, Copy, Debug)]
pub struct Illustration {
    pub caption: &'static str,
    /// Options as the setup screen and the command line write them.
    pub options: &'static [(&'static str, &'static str)],
    /// The position text of the spec.
    pub position: &'static str,
    /// One record token of the spec's notation, or "" when the picture is the position alone.
    pub play: &'static str,
    /// Spaces ringed on the picture of the position: those the caption speaks of.
    pub marks: &'static [&'static str],
    /// The position text after `play`, as the game writes it ("" when nothing is played): the
    /// engine confirms what the caption shows.
    pub after: &'static str,
}
