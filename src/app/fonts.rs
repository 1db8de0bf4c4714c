//! The menus' and HUD's fonts: egui's Ubuntu Light for text and Hack for monospace (each the
//! other's fallback: Hack has the arrows Ubuntu lacks). egui's two emoji fonts (0.7 MB) are left
//! out because no text of the game uses emoji, which keeps the browser download smaller.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::sync::Arc;

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, install_fonts);
}

/// The font set: Ubuntu Light first for proportional text, Hack first for monospace.
pub fn font_definitions() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::empty();
    fonts.font_data.insert("ubuntu".into(), Arc::new(egui::FontData::from_static(epaint_default_fonts::UBUNTU_LIGHT)));
    fonts.font_data.insert("hack".into(), Arc::new(egui::FontData::from_static(epaint_default_fonts::HACK_REGULAR)));
    fonts.families.insert(egui::FontFamily::Proportional, vec!["ubuntu".into(), "hack".into()]);
    fonts.families.insert(egui::FontFamily::Monospace, vec!["hack".into(), "ubuntu".into()]);
    fonts
}

fn install_fonts(mut contexts: EguiContexts, mut installed: Local<bool>) -> Result {
    if *installed {
        return Ok(());
    }
    contexts.ctx_mut()?.set_fonts(font_definitions());
    *installed = true;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_the_game_writes_has_a_glyph_in_each_family() {
        let fonts = font_definitions();
        let faces = |family: egui::FontFamily| -> Vec<ttf_parser::Face<'static>> {
            fonts.families[&family]
                .iter()
                .map(|name| match name.as_str() {
                    "ubuntu" => epaint_default_fonts::UBUNTU_LIGHT,
                    "hack" => epaint_default_fonts::HACK_REGULAR,
                    other => panic!("unexpected font {other}"),
                })
                .map(|bytes| ttf_parser::Face::parse(bytes, 0).expect("a font file"))
                .collect()
        };
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
            let faces = faces(family.clone());
            // The non-ASCII characters of the game's texts (menus, labels, rules), and ASCII.
            for c in "§→·…—“”–≤≥×−±°²◀▶ AZaz09|<>*+-#".chars() {
                assert!(faces.iter().any(|f| f.glyph_index(c).is_some()), "{family:?} has no glyph for {c:?}");
            }
        }
        assert!(
            faces(egui::FontFamily::Proportional)[0].glyph_index('→').is_none(),
            "Ubuntu lacks arrows: Hack backs it"
        );
    }
}
