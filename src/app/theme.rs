//! Colours and the one style of every screen: for each settings theme the page, panel, card,
//! text and accent colours of the interface, the board's colours (wood, lines, labels, pieces,
//! marks), and egui's look built from them (one button style, text sizes). A side's pieces are
//! dark or light as its game says (`GameKind::tone`). Tests check that every text colour reaches a
//! contrast of 4.5:1 against what it is drawn on, and that the sides differ in greyscale.

use super::settings::CurrentSettings;
use crate::games::GameKind;
use crate::rules::{Side, Tone};
use crate::save::Theme;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The interface's colours (sRGB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Behind everything (menus, around the board).
    pub background: [u8; 3],
    /// The side panel.
    pub panel: [u8; 3],
    /// Cards and buttons on the panel and the menus.
    pub card: [u8; 3],
    /// A button under the pointer.
    pub card_hover: [u8; 3],
    pub text: [u8; 3],
    /// Secondary text (details, key hints): still 4.5:1 on every surface.
    pub weak_text: [u8; 3],
    /// Selected and focused things, and the side to move's glow.
    pub accent: [u8; 3],
    /// Text on the accent colour.
    pub accent_text: [u8; 3],
    /// Outlines of cards and buttons.
    pub stroke: [u8; 3],
    /// Warnings and refusals.
    pub warn: [u8; 3],
    pub dark_mode: bool,
}

pub fn palette(theme: Theme) -> Palette {
    match theme {
        Theme::Classic => Palette {
            background: [232, 221, 200],
            panel: [244, 237, 224],
            card: [252, 248, 240],
            card_hover: [238, 226, 204],
            text: [38, 28, 20],
            weak_text: [92, 74, 56],
            accent: [150, 60, 28],
            accent_text: [255, 255, 255],
            stroke: [176, 150, 116],
            warn: [150, 36, 16],
            dark_mode: false,
        },
        Theme::Night => Palette {
            background: [22, 26, 34],
            panel: [31, 36, 47],
            card: [43, 49, 63],
            card_hover: [56, 64, 82],
            text: [234, 236, 242],
            weak_text: [170, 178, 194],
            accent: [110, 168, 255],
            accent_text: [10, 14, 24],
            stroke: [78, 88, 110],
            warn: [255, 160, 130],
            dark_mode: true,
        },
        // Okabe–Ito: blue accent, vermillion warnings, black text on white: safe for every
        // common colour-vision deficiency.
        Theme::ColourBlindSafe => Palette {
            background: [236, 236, 236],
            panel: [248, 248, 248],
            card: [255, 255, 255],
            card_hover: [228, 232, 238],
            text: [0, 0, 0],
            weak_text: [74, 74, 74],
            accent: [0, 101, 160],
            accent_text: [255, 255, 255],
            stroke: [150, 150, 150],
            warn: [166, 66, 0],
            dark_mode: false,
        },
    }
}

/// The board's colours (sRGB).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardPalette {
    /// The wood's two tones: the grain runs between them.
    pub wood_light: [u8; 3],
    pub wood_dark: [u8; 3],
    /// The board's edge, darker than its face.
    pub rim: [u8; 3],
    /// The darker squares of a board of squares multiply the wood by this (the lighter ones show it
    /// as it is): two close wood tones, so tints and marks stay readable.
    pub square_dark: [u8; 3],
    /// Grid lines (drawn at 70% opacity) and small points.
    pub line: [u8; 3],
    /// Coordinates and other text on the wood.
    pub label: [u8; 3],
    /// A burned square (scorched).
    pub burned: [u8; 3],
    /// Pieces: the dark side's, the light side's, neutral ones (red stones).
    pub dark: [u8; 3],
    pub light: [u8; 3],
    pub neutral: [u8; 3],
    /// How glossy each kind of piece is (0 matt, 1 glossy).
    pub dark_gloss: f32,
    pub light_gloss: f32,
    pub neutral_gloss: f32,
    /// Text drawn on a dark piece and on a light one.
    pub dark_text: [u8; 3],
    pub light_text: [u8; 3],
    /// The keyboard cursor.
    pub cursor: [u8; 3],
    /// Where a decision can start.
    pub legal: [u8; 3],
    /// Captures, removals and danger.
    pub capture: [u8; 3],
    /// The computer's hint.
    pub hint: [u8; 3],
    /// The badge behind a stack's height, and its text.
    pub badge: [u8; 3],
    pub badge_text: [u8; 3],
    /// How strongly a side's tint shows on a space, 1 as usual: the colour-blind palette's two
    /// mid-tone sides need more to stay apart in greyscale.
    pub tint_weight: f32,
}

pub fn board_palette(theme: Theme) -> BoardPalette {
    match theme {
        Theme::Classic => BoardPalette {
            wood_light: [232, 196, 146],
            wood_dark: [204, 160, 106],
            rim: [146, 102, 58],
            square_dark: [226, 210, 190],
            line: [52, 34, 18],
            label: [52, 32, 14],
            burned: [60, 38, 30],
            dark: [34, 34, 38],
            light: [242, 238, 228],
            neutral: [200, 30, 30],
            dark_gloss: 0.25,
            light_gloss: 0.15,
            neutral_gloss: 0.6,
            dark_text: [240, 240, 240],
            light_text: [24, 24, 24],
            cursor: [24, 96, 210],
            legal: [24, 84, 190],
            capture: [205, 26, 26],
            hint: [16, 140, 64],
            badge: [32, 26, 22],
            badge_text: [255, 255, 255],
            tint_weight: 1.0,
        },
        // The board keeps its wood at night, a shade darker; the room around it goes dark.
        Theme::Night => BoardPalette {
            wood_light: [190, 152, 106],
            wood_dark: [166, 130, 90],
            rim: [96, 68, 40],
            square_dark: [222, 206, 186],
            line: [36, 24, 12],
            label: [28, 18, 8],
            burned: [46, 28, 22],
            dark: [26, 26, 30],
            light: [236, 232, 222],
            neutral: [196, 34, 30],
            dark_gloss: 0.3,
            light_gloss: 0.15,
            neutral_gloss: 0.6,
            dark_text: [240, 240, 240],
            light_text: [24, 24, 24],
            cursor: [255, 196, 40],
            legal: [20, 70, 170],
            capture: [200, 20, 20],
            hint: [14, 120, 56],
            badge: [20, 16, 14],
            badge_text: [255, 255, 255],
            tint_weight: 1.0,
        },
        // Okabe–Ito blue and orange sides on pale maple; the neutral reddish purple: three
        // different greys in greyscale.
        Theme::ColourBlindSafe => BoardPalette {
            wood_light: [238, 230, 214],
            wood_dark: [218, 208, 190],
            rim: [150, 140, 124],
            square_dark: [222, 222, 226],
            line: [40, 40, 40],
            label: [36, 36, 36],
            burned: [70, 70, 70],
            dark: [0, 88, 150],
            light: [242, 168, 30],
            neutral: [204, 121, 167],
            dark_gloss: 0.3,
            light_gloss: 0.2,
            neutral_gloss: 0.4,
            dark_text: [255, 255, 255],
            light_text: [0, 0, 0],
            cursor: [0, 158, 115],
            legal: [0, 88, 150],
            capture: [166, 66, 0],
            hint: [0, 120, 86],
            badge: [20, 20, 20],
            badge_text: [255, 255, 255],
            tint_weight: 1.35,
        },
    }
}

impl BoardPalette {
    /// The fill and text colours of a piece of `owner` in game `kind` (`None`: a neutral piece,
    /// Red Stone's red stones).
    pub fn piece(&self, kind: GameKind, owner: Option<Side>) -> ([u8; 3], [u8; 3]) {
        match owner.map(|side| kind.tone(side)) {
            Some(Tone::Dark) => (self.dark, self.dark_text),
            Some(Tone::Light) => (self.light, self.light_text),
            None => (self.neutral, [255, 255, 255]),
        }
    }

    /// The tint of a side's spaces (control, influence, chosen spaces): its pieces' colour.
    pub fn side(&self, kind: GameKind, side: Side) -> [u8; 3] {
        self.piece(kind, Some(side)).0
    }

    /// The opacity of a space's tint in its side's colour, for a strength of 0 to 1 (`look`): even
    /// the weakest tint of a side stays clearly apart from the other side's.
    pub fn tint_alpha(&self, strength: f32) -> f32 {
        ((0.14 + 0.32 * strength) * self.tint_weight).min(0.8)
    }

    /// A figure's fill and outline (Hidden Intention): a dark figure is filled dark with an edge
    /// only a little lighter, so it reads as dark, never as a hollow outline; a light figure is
    /// filled light with a dark outline.
    pub fn figure(&self, tone: Tone) -> ([u8; 3], [u8; 3]) {
        match tone {
            // An edge barely lighter than the fill: a black figure reads black, its lines still show.
            Tone::Dark => (self.dark, mix(self.dark, self.dark_text, 0.15)),
            Tone::Light => (self.light, self.light_text),
        }
    }
}

/// `a` moved `t` (0 to 1) of the way to `b`.
pub fn mix(a: [u8; 3], b: [u8; 3], t: f32) -> [u8; 3] {
    std::array::from_fn(|i| (a[i] as f32 + (b[i] as f32 - a[i] as f32) * t).round() as u8)
}

/// The weakest tint of an owned square (influence ±1), as a strength of 0 to 1.
pub const OWNED_STRENGTH: f32 = 0.5;

/// A colour of the palettes as Bevy's.
pub fn rgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}

/// A colour of the palettes as egui's.
pub fn egui_rgb(c: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(c[0], c[1], c[2])
}

/// The relative luminance of an sRGB colour (WCAG 2).
#[cfg(test)]
fn luminance(c: [u8; 3]) -> f32 {
    let channel = |v: u8| {
        let v = v as f32 / 255.0;
        if v <= 0.039_28 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])
}

/// The contrast ratio of two colours (WCAG 2): 1 to 21.
#[cfg(test)]
fn contrast(a: [u8; 3], b: [u8; 3]) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Text sizes in logical pixels: nothing smaller than `SMALL`.
pub mod text_size {
    pub const SMALL: f32 = 14.0;
    pub const BODY: f32 = 16.0;
    pub const BUTTON: f32 = 16.0;
    pub const HEADING: f32 = 22.0;
    pub const TITLE: f32 = 40.0;
}

/// The height of buttons and rows a finger must hit.
pub const TOUCH: f32 = 44.0;

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, apply_theme);
}

/// egui's look for a theme: its colours, rounded buttons of one style, text sizes.
pub fn egui_style(theme: Theme) -> egui::Style {
    let p = palette(theme);
    let mut style = egui::Style::default();
    let mut visuals = if p.dark_mode { egui::Visuals::dark() } else { egui::Visuals::light() };
    visuals.panel_fill = egui_rgb(p.panel);
    visuals.window_fill = egui_rgb(p.card);
    visuals.window_stroke = egui::Stroke::new(1.0, egui_rgb(p.stroke));
    visuals.extreme_bg_color = egui_rgb(p.card);
    visuals.faint_bg_color = egui_rgb(p.card_hover);
    visuals.override_text_color = Some(egui_rgb(p.text));
    visuals.weak_text_color = Some(egui_rgb(p.weak_text));
    visuals.warn_fg_color = egui_rgb(p.warn);
    visuals.error_fg_color = egui_rgb(p.warn);
    visuals.hyperlink_color = egui_rgb(p.accent);
    visuals.selection.bg_fill = egui_rgb(p.accent);
    visuals.selection.stroke = egui::Stroke::new(2.0, egui_rgb(p.accent));
    let rounding = egui::CornerRadius::same(8);
    // Buttons a shade apart from the cards they sit on.
    for (w, fill, stroke) in [
        (&mut visuals.widgets.inactive, p.card_hover, p.stroke),
        (&mut visuals.widgets.hovered, p.card, p.accent),
        (&mut visuals.widgets.active, p.card, p.accent),
        (&mut visuals.widgets.open, p.card_hover, p.stroke),
        (&mut visuals.widgets.noninteractive, p.panel, p.stroke),
    ] {
        w.bg_fill = egui_rgb(fill);
        w.weak_bg_fill = egui_rgb(fill);
        w.bg_stroke = egui::Stroke::new(1.0, egui_rgb(stroke));
        w.corner_radius = rounding;
        w.fg_stroke = egui::Stroke::new(1.5, egui_rgb(p.text));
        w.expansion = 0.0;
    }
    visuals.widgets.noninteractive.bg_stroke = egui::Stroke::new(1.0, egui_rgb(p.stroke).gamma_multiply(0.6));
    style.visuals = visuals;
    style.spacing.button_padding = egui::vec2(12.0, 8.0);
    style.spacing.item_spacing = egui::vec2(8.0, 8.0);
    style.spacing.interact_size.y = TOUCH - 8.0;
    use egui::{FontFamily, FontId, TextStyle};
    style.text_styles = [
        (TextStyle::Small, FontId::new(text_size::SMALL, FontFamily::Proportional)),
        (TextStyle::Body, FontId::new(text_size::BODY, FontFamily::Proportional)),
        (TextStyle::Button, FontId::new(text_size::BUTTON, FontFamily::Proportional)),
        (TextStyle::Heading, FontId::new(text_size::HEADING, FontFamily::Proportional)),
        (TextStyle::Monospace, FontId::new(15.0, FontFamily::Monospace)),
    ]
    .into();
    style
}

fn apply_theme(
    mut contexts: EguiContexts,
    settings: Res<CurrentSettings>,
    mut clear: ResMut<ClearColor>,
    mut applied: Local<Option<Theme>>,
) -> Result {
    let theme = settings.0.theme;
    if *applied == Some(theme) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    ctx.set_global_style(egui_style(theme));
    clear.0 = rgb(palette(theme).background);
    *applied = Some(theme);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const AA: f32 = 4.5;

    #[test]
    fn every_interface_text_reaches_4_5_to_1_on_every_surface() {
        for theme in Theme::ALL {
            let p = palette(theme);
            for surface in [p.background, p.panel, p.card, p.card_hover] {
                for (name, text) in [("text", p.text), ("weak text", p.weak_text), ("warning", p.warn)] {
                    let c = contrast(text, surface);
                    assert!(c >= AA, "{theme:?}: {name} {text:?} on {surface:?} is {c:.2}:1");
                }
            }
            let c = contrast(p.accent_text, p.accent);
            assert!(c >= AA, "{theme:?}: text on the accent is {c:.2}:1");
        }
    }

    #[test]
    fn text_on_the_board_and_on_pieces_reaches_4_5_to_1() {
        for theme in Theme::ALL {
            let b = board_palette(theme);
            // Coordinates sit on the wood of the board's margin, between its two tones (numbers on
            // spaces are drawn on their own badge).
            for wood in [b.wood_light, b.wood_dark] {
                let c = contrast(b.label, wood);
                assert!(c >= AA, "{theme:?}: labels on {wood:?} are {c:.2}:1");
            }
            for (fill, text) in [(b.dark, b.dark_text), (b.light, b.light_text), (b.badge, b.badge_text)] {
                let c = contrast(fill, text);
                assert!(c >= AA, "{theme:?}: text {text:?} on {fill:?} is {c:.2}:1");
            }
        }
    }

    #[test]
    fn figures_are_filled_in_their_sides_tone_and_owned_squares_are_clearly_apart() {
        let kind = GameKind::named("hidden-intention");
        for theme in Theme::ALL {
            let b = board_palette(theme);
            let (dark_fill, dark_edge) = b.figure(Tone::Dark);
            let (light_fill, light_edge) = b.figure(Tone::Light);
            let middle = (luminance(dark_fill) + luminance(light_fill)) / 2.0;
            // A dark figure is dark all over, its edge included; a light one has a visible outline.
            assert!(luminance(dark_edge) < middle, "{theme:?}: the dark figure's edge {dark_edge:?} reads light");
            assert!(contrast(light_fill, light_edge) >= 3.0, "{theme:?}: the light figure's outline is faint");
            let ratio = contrast(dark_fill, light_fill);
            assert!(ratio >= 3.0, "{theme:?}: the figures' fills look alike in greyscale ({ratio:.2})");
            // The weakest ownership tint of each side on the wood (a square owned by one point).
            let weakest = |side: Side| {
                let over = |wood: [u8; 3]| mix(wood, b.side(kind, side), b.tint_alpha(OWNED_STRENGTH));
                [over(b.wood_light), over(b.wood_dark)]
            };
            let (first, second) = (weakest(Side::First), weakest(Side::Second));
            for (a, z) in first.into_iter().zip(second) {
                let ratio = contrast(a, z);
                assert!(ratio >= 1.5, "{theme:?}: owned squares {a:?} and {z:?} look alike in greyscale ({ratio:.2})");
            }
        }
    }

    #[test]
    fn the_sides_and_the_neutral_pieces_differ_in_greyscale() {
        for theme in Theme::ALL {
            let b = board_palette(theme);
            let greys = [b.dark, b.light, b.neutral].map(luminance);
            for i in 0..3 {
                for j in i + 1..3 {
                    let ratio = (greys[i].max(greys[j]) + 0.05) / (greys[i].min(greys[j]) + 0.05);
                    assert!(ratio >= 1.4, "{theme:?}: pieces {i} and {j} look alike in greyscale ({ratio:.2})");
                }
            }
        }
    }
}
