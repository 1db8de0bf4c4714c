//! Colours: the egui look, the background and the board's colours for each settings theme, and
//! the colours of a side's pieces (each game says which side is dark and which light).

use super::settings::CurrentSettings;
use crate::games::GameKind;
use crate::rules::{Side, Tone};
use crate::save::Theme;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

/// The few colours everything else derives from.
pub struct Palette {
    pub background: [u8; 3],
    pub panel: [u8; 3],
    pub text: [u8; 3],
    pub accent: [u8; 3],
    pub dark_mode: bool,
}

pub fn palette(theme: Theme) -> Palette {
    match theme {
        Theme::Classic => Palette {
            background: [222, 200, 160],
            panel: [238, 226, 200],
            text: [40, 30, 20],
            accent: [150, 60, 30],
            dark_mode: false,
        },
        Theme::Night => Palette {
            background: [24, 28, 36],
            panel: [34, 40, 52],
            text: [225, 228, 235],
            accent: [110, 170, 255],
            dark_mode: true,
        },
        // Okabe–Ito: orange accent on a neutral grey, safe for every common colour-vision deficiency.
        Theme::ColourBlindSafe => Palette {
            background: [235, 235, 235],
            panel: [250, 250, 250],
            text: [0, 0, 0],
            accent: [213, 94, 0],
            dark_mode: false,
        },
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, apply_theme);
}

fn egui_rgb(c: [u8; 3]) -> egui::Color32 {
    egui::Color32::from_rgb(c[0], c[1], c[2])
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
    let p = palette(theme);
    let mut visuals = if p.dark_mode { egui::Visuals::dark() } else { egui::Visuals::light() };
    visuals.panel_fill = egui_rgb(p.panel);
    visuals.window_fill = egui_rgb(p.panel);
    visuals.override_text_color = Some(egui_rgb(p.text));
    visuals.selection.bg_fill = egui_rgb(p.accent).gamma_multiply(0.35);
    visuals.selection.stroke = egui::Stroke::new(2.0, egui_rgb(p.accent));
    visuals.hyperlink_color = egui_rgb(p.accent);
    ctx.set_visuals(visuals);
    clear.0 = Color::srgb_u8(p.background[0], p.background[1], p.background[2]);
    *applied = Some(theme);
    Ok(())
}

/// Board colours (RGB) for a theme.
pub struct BoardPalette {
    pub board: [u8; 3],
    pub line: [u8; 3],
    pub square_dark: [u8; 3],
    pub square_light: [u8; 3],
    pub burned: [u8; 3],
    /// Dark pieces and the text on them.
    pub dark: [u8; 3],
    pub dark_text: [u8; 3],
    /// Light pieces and the text on them.
    pub light: [u8; 3],
    pub light_text: [u8; 3],
    /// Neutral pieces (Red Stone's red stones).
    pub neutral: [u8; 3],
    pub cursor: [u8; 3],
}

pub fn board_palette(theme: Theme) -> BoardPalette {
    match theme {
        Theme::Classic => BoardPalette {
            board: [205, 160, 95],
            line: [60, 40, 20],
            square_dark: [181, 136, 99],
            square_light: [240, 217, 181],
            burned: [70, 45, 35],
            dark: [30, 30, 30],
            dark_text: [240, 240, 240],
            light: [245, 245, 240],
            light_text: [20, 20, 20],
            neutral: [200, 30, 30],
            cursor: [30, 120, 220],
        },
        Theme::Night => BoardPalette {
            board: [52, 60, 78],
            line: [150, 160, 180],
            square_dark: [62, 72, 92],
            square_light: [88, 100, 124],
            burned: [120, 50, 30],
            dark: [15, 15, 20],
            dark_text: [230, 230, 230],
            light: [225, 230, 240],
            light_text: [20, 20, 30],
            neutral: [230, 70, 60],
            cursor: [255, 200, 60],
        },
        // Okabe–Ito: blue vs orange players, vermillion neutral, sky-blue cursor.
        Theme::ColourBlindSafe => BoardPalette {
            board: [220, 220, 220],
            line: [60, 60, 60],
            square_dark: [170, 170, 170],
            square_light: [235, 235, 235],
            burned: [90, 90, 90],
            dark: [0, 114, 178],
            dark_text: [255, 255, 255],
            light: [230, 159, 0],
            light_text: [0, 0, 0],
            neutral: [213, 94, 0],
            cursor: [0, 158, 115],
        },
    }
}

impl BoardPalette {
    /// The fill and text colours (RGB) of a piece of `owner` in game `kind` (`None`: a neutral
    /// piece, Red Stone's red stones).
    pub fn piece(&self, kind: GameKind, owner: Option<Side>) -> ([u8; 3], [u8; 3]) {
        match owner.map(|side| kind.tone(side)) {
            Some(Tone::Dark) => (self.dark, self.dark_text),
            Some(Tone::Light) => (self.light, self.light_text),
            None => (self.neutral, [255, 255, 255]),
        }
    }

    /// The tint of a side's spaces (control, chosen spaces): its pieces' colour.
    pub fn side(&self, kind: GameKind, side: Side) -> [u8; 3] {
        self.piece(kind, Some(side)).0
    }
}

/// A colour of the palettes as Bevy's.
pub fn rgb(c: [u8; 3]) -> Color {
    Color::srgb_u8(c[0], c[1], c[2])
}
