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
