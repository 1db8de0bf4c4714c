//! Colours: the egui look and the background for each settings theme.

use super::settings_io::CurrentSettings;
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

fn rgb(c: [u8; 3]) -> egui::Color32 {
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
    visuals.panel_fill = rgb(p.panel);
    visuals.window_fill = rgb(p.panel);
    visuals.override_text_color = Some(rgb(p.text));
    visuals.selection.bg_fill = rgb(p.accent).gamma_multiply(0.35);
    visuals.selection.stroke = egui::Stroke::new(2.0, rgb(p.accent));
    visuals.hyperlink_color = rgb(p.accent);
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
    pub first: [u8; 3],
    pub first_text: [u8; 3],
    pub second: [u8; 3],
    pub second_text: [u8; 3],
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
            first: [30, 30, 30],
            first_text: [240, 240, 240],
            second: [245, 245, 240],
            second_text: [20, 20, 20],
            neutral: [200, 30, 30],
            cursor: [30, 120, 220],
        },
        Theme::Night => BoardPalette {
            board: [52, 60, 78],
            line: [150, 160, 180],
            square_dark: [62, 72, 92],
            square_light: [88, 100, 124],
            burned: [120, 50, 30],
            first: [15, 15, 20],
            first_text: [230, 230, 230],
            second: [225, 230, 240],
            second_text: [20, 20, 30],
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
            first: [0, 114, 178],
            first_text: [255, 255, 255],
            second: [230, 159, 0],
            second_text: [0, 0, 0],
            neutral: [213, 94, 0],
            cursor: [0, 158, 115],
        },
    }
}
