//! The rules (HUD → Rules): each game's complete reference, section by section, every rule with its
//! drawn example (before and after its move, with the board's own colours and the spaces' names) —
//! in a window beside the board, or in the phone panel's Rules tab. A lesson opens it at the
//! section it teaches.

use super::Panels;
use crate::app::match_state::CurrentMatch;
use crate::app::playing::Offer;
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::app::theme::{TOUCH, text_size};
use crate::app::ui::{ScreenLayout, paint_named_board};
use crate::games::DynGame;
use crate::games::GameKind;
use crate::rules::{BoardView, Illustration};
use crate::save::{Theme, token_decisions};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub fn plugin(app: &mut App) {
    app.init_resource::<RulesPictures>();
    app.add_systems(Update, build_pictures.run_if(resource_exists::<CurrentMatch>));
    app.add_systems(EguiPrimaryContextPass, draw_rules_window.run_if(in_state(Screen::Playing)));
}

/// The current game's examples ready to draw, section by section (built once per game: they never
/// change).
#[derive(Resource, Default)]
pub(super) struct RulesPictures {
    kind: Option<GameKind>,
    sections: Vec<Vec<Drawn>>,
}

/// One example ready to draw: the board before its move and after it.
struct Drawn {
    caption: &'static str,
    play: &'static str,
    before: BoardView,
    after: Option<BoardView>,
    /// The spaces the example speaks of, ringed on the picture before its move: its marks, then
    /// those the move's decisions pick.
    ringed: Vec<String>,
}

/// The spaces a player picks for the decisions of `play`, in order, each decision described by
/// the game in the position it is made in.
fn picked_spaces(before: &dyn DynGame, play: &str) -> Vec<String> {
    let mut position = before.clone_box();
    let mut picked = Vec::new();
    for decision in token_decisions(before, play).unwrap_or_default() {
        if let Some(info) = position.describe_decision(&decision) {
            picked.extend(Offer::of(&info, &position.board_view()).picks);
        }
        if position.play_decision(&decision).is_err() {
            break;
        }
    }
    picked
}

/// An example opened and played; `None` when it does not open (the games' tests make sure they
/// all do).
fn drawn(kind: GameKind, example: &'static Illustration) -> Option<Drawn> {
    let options: Vec<(String, String)> = example.options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let before = kind.open(&options, Some(example.position)).ok()?;
    let mut ringed: Vec<String> = example.marks.iter().map(|m| m.to_string()).collect();
    let after = if example.play.is_empty() {
        None
    } else {
        let mut after = before.clone_box();
        after.play_token(example.play).ok()?;
        ringed.extend(picked_spaces(before.as_ref(), example.play));
        Some(after.board_view())
    };
    Some(Drawn { caption: example.caption, play: example.play, before: before.board_view(), after, ringed })
}

impl RulesPictures {
    fn of(kind: GameKind) -> Self {
        let sections = kind
            .rules
            .sections
            .iter()
            .map(|section| section.examples.iter().filter_map(|example| drawn(kind, example)).collect())
            .collect();
        RulesPictures { kind: Some(kind), sections }
    }
}

fn build_pictures(current: Res<CurrentMatch>, mut pictures: ResMut<RulesPictures>) {
    let kind = current.position().kind();
    if pictures.kind != Some(kind) {
        *pictures = RulesPictures::of(kind);
    }
}

fn draw_rules_window(
    mut contexts: EguiContexts,
    mut panels: ResMut<Panels>,
    current: Option<Res<CurrentMatch>>,
    settings: Res<CurrentSettings>,
    pictures: Res<RulesPictures>,
    layout: Res<ScreenLayout>,
) -> Result {
    let Some(current) = current else { return Ok(()) };
    if !panels.rules_open {
        return Ok(());
    }
    let kind = current.position().kind();
    let ctx = contexts.ctx_mut()?;
    let (width, height) = (ctx.viewport_rect().width(), ctx.viewport_rect().height());
    let mut open = true;
    let window = egui::Window::new(format!("{} — rules", kind.name())).open(&mut open).collapsible(false);
    // Beside the board in landscape; on a phone the whole screen, as a sheet to read and close.
    let (window, room) = if layout.phone {
        let margin = 6.0;
        let size = egui::vec2(width - 2.0 * margin - 12.0, height - 2.0 * margin - 48.0);
        (window.anchor(egui::Align2::LEFT_TOP, egui::vec2(margin, margin)).fixed_size(size).resizable(false), size.y)
    } else {
        let window = window
            .default_width(480.0_f32.min(width - 32.0))
            .max_width(width - 32.0)
            .default_height(height - 60.0)
            .anchor(egui::Align2::LEFT_TOP, egui::vec2(16.0, 16.0));
        (window, height - 110.0)
    };
    let mut back = false;
    window.show(ctx, |ui| {
        // A phone's sheet keeps a thumb-sized way back under the text.
        let room = if layout.phone { room - TOUCH - 12.0 } else { room };
        egui::ScrollArea::vertical().auto_shrink([false, false]).max_height(room).show(ui, |ui| {
            reference(ui, kind, &pictures, settings.0.theme, &mut panels.rules_scroll);
        });
        if layout.phone {
            ui.add_space(6.0);
            back = crate::app::ui::button(ui, "Back to the game").clicked();
        }
    });
    if !open || back {
        panels.rules_open = false;
    }
    Ok(())
}

/// A section to bring to the top of the rules, asked for again over a few frames: a window's first
/// frame only measures its contents, and the pictures' heights settle in the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ScrollTo {
    pub section: &'static str,
    pub frames: u8,
}

impl ScrollTo {
    pub fn section(section: &'static str) -> Self {
        ScrollTo { section, frames: 4 }
    }
}

/// The whole reference in `ui` (inside a scroll area), brought to the section `scroll_to` names.
pub(super) fn reference(
    ui: &mut egui::Ui,
    kind: GameKind,
    pictures: &RulesPictures,
    theme: Theme,
    scroll_to: &mut Option<ScrollTo>,
) {
    let contents: Vec<String> = kind.rules.sections.iter().map(|s| s.heading.to_string()).collect();
    ui.label(egui::RichText::new(contents.join(" · ")).size(text_size::SMALL).weak());
    for (i, section) in kind.rules.sections.iter().enumerate() {
        ui.add_space(8.0);
        let heading = ui.label(egui::RichText::new(section.heading).size(18.0).strong());
        if let Some(target) = scroll_to.as_mut().filter(|t| t.section == section.id) {
            heading.scroll_to_me(Some(egui::Align::TOP));
            target.frames = target.frames.saturating_sub(1);
            if target.frames == 0 {
                *scroll_to = None;
            }
        }
        for paragraph in section.text.split("\n\n") {
            ui.label(egui::RichText::new(paragraph).size(15.0));
            ui.add_space(2.0);
        }
        let drawn = pictures.sections.get(i).filter(|_| pictures.kind == Some(kind));
        for d in drawn.into_iter().flatten() {
            example(ui, kind, theme, d);
        }
    }
    // A section the game does not have (an old lesson's link) is not looked for again.
    if scroll_to.is_some_and(|t| kind.rules.section(t.section).is_none()) {
        *scroll_to = None;
    }
}

/// One example: the position (its spaces ringed), an arrow to the position after its move, the
/// move in the game's notation and the caption.
fn example(ui: &mut egui::Ui, kind: GameKind, theme: Theme, d: &Drawn) {
    let ringed: Vec<&str> = d.ringed.iter().map(String::as_str).collect();
    // Two pictures and the arrow between them fit the window, or a phone's width.
    let side = ((ui.available_width() - 36.0) / 2.0).clamp(110.0, PICTURE);
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        paint_named_board(ui, &d.before, kind, theme, side, &ringed);
        if let Some(after) = &d.after {
            ui.vertical(|ui| {
                ui.add_space(side / 2.0 - 12.0);
                ui.label(egui::RichText::new("→").size(20.0).strong());
            });
            paint_named_board(ui, after, kind, theme, side, &[]);
        }
    });
    // One paragraph: the move in the game's notation, then the caption.
    let mut text = egui::text::LayoutJob::default();
    let style = ui.style().clone();
    let mut add = |words: egui::RichText| {
        words.append_to(&mut text, &style, egui::FontSelection::Default, egui::Align::LEFT);
    };
    if !d.play.is_empty() {
        add(egui::RichText::new(format!("{}  ", d.play)).monospace().strong());
    }
    add(egui::RichText::new(d.caption).size(14.0).italics());
    ui.label(text);
}

/// Side length of an example's picture, in logical pixels, where there is room.
const PICTURE: f32 = 190.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_is_drawn_with_its_move_and_its_spaces_ringed() {
        for kind in GameKind::all() {
            let pictures = RulesPictures::of(kind);
            for (section, drawn) in kind.rules.sections.iter().zip(&pictures.sections) {
                assert_eq!(drawn.len(), section.examples.len(), "{kind} {}: an example did not open", section.id);
                for (d, example) in drawn.iter().zip(section.examples) {
                    assert_eq!(d.after.is_some(), !example.play.is_empty(), "{kind} {}", example.caption);
                    assert!(
                        example.marks.iter().all(|m| d.ringed.iter().any(|r| r == m)),
                        "{kind} {}",
                        example.caption
                    );
                    if !example.play.is_empty() {
                        assert!(
                            d.ringed.len() > example.marks.len(),
                            "{kind} {}: the move picks nothing",
                            example.play
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_rules_come_to_the_section_asked_for_on_a_phone_and_stop_asking_once_there() {
        let kind = GameKind::named("red-stone");
        let pictures = RulesPictures::of(kind);
        let mut scroll = Some(ScrollTo::section("the-end"));
        let mut frames = 0;
        while scroll.is_some() && frames < 10 {
            crate::app::hud::lay_out(egui::vec2(366.0, 700.0), |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| reference(ui, kind, &pictures, Theme::Classic, &mut scroll));
            });
            frames += 1;
        }
        assert!(scroll.is_none(), "still asking after {frames} layouts");
        // A section the game does not have is not looked for again.
        let mut scroll = Some(ScrollTo::section("castling"));
        crate::app::hud::lay_out(egui::vec2(366.0, 700.0), |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| reference(ui, kind, &pictures, Theme::Classic, &mut scroll));
        });
        assert_eq!(scroll, None);
    }
}
