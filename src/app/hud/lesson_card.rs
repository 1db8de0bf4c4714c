//! The lesson's card at the top of the panel: which lesson, its goal (always in view), the hints
//! asked for, and how the learner stands — solved (Next, or after the last lesson a game against
//! the computer), a wrong move's consequence with why and Retry, or a move off the lesson's way;
//! and a practice position's card.

use super::{PanelActions, PanelView};
use crate::app::labels::decision_label;
use crate::app::lesson_state::{Answer, LessonCommand, LessonRun};
use crate::app::match_state::{CurrentMatch, side_label};
use crate::app::theme::text_size;
use crate::app::ui::{by_touch, card};
use crate::lessons::Standing;
use bevy_egui::egui;

/// The green of a solved lesson's words.
const SOLVED: egui::Color32 = egui::Color32::from_rgb(0x3a, 0xa0, 0x55);

/// A decision as the panel's choices name it ("Red stone on C3").
fn decision_words(current: &CurrentMatch, decision: &str) -> String {
    decision_words_in(current.position(), decision)
}

/// A decision at `game` in the panel's words.
fn decision_words_in(game: &dyn crate::games::DynGame, decision: &str) -> String {
    let mover = game.describe_decision(decision).map(|info| side_label(game, info.side)).unwrap_or_default();
    decision_label(game.kind(), decision, &mover)
}

/// What the learner may press on the card, with its key ("E") when keys are in use.
fn labelled(ui: &egui::Ui, text: &str, key: &str) -> String {
    if by_touch(ui) { text.to_string() } else { format!("{text} ({key})") }
}

/// The card; `compact` (under the board on a phone) leaves the introduction to the Actions tab.
pub(super) fn lesson_card(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    view: &PanelView,
    act: &mut PanelActions,
    compact: bool,
) {
    let Some(run) = view.lesson.as_deref() else { return };
    let margin = if view.layout.short() { egui::Margin::symmetric(8, 4) } else { egui::Margin::symmetric(10, 6) };
    card(ui, false).inner_margin(margin).show(ui, |ui| {
        ui.set_width(ui.available_width());
        // Who the learner is: not always the side that moves first (a playtest's lesson 9 had the
        // learner as White and a newcomer took themselves for Black).
        let you = side_label(current.start(), run.learner);
        let started = !current.is_empty();
        if compact {
            // On a phone the place line shares its row with the rule's link: the room under the
            // card is the lesson's introduction's and its commands'.
            ui.horizontal_wrapped(|ui| {
                let place = format!("Lesson {} of {} · you play {you}", run.index + 1, run.count);
                ui.label(egui::RichText::new(place).size(text_size::SMALL).weak());
                // The link whole, on this row or the next.
                if let Some(link) = rules_link_text(run) {
                    let wrap = Some(egui::TextWrapMode::Extend);
                    let galley =
                        egui::WidgetText::from(link).into_galley(ui, wrap, f32::INFINITY, egui::TextStyle::Body);
                    if galley.size().x + ui.spacing().item_spacing.x > ui.available_size_before_wrap().x {
                        ui.end_row();
                    }
                }
                rules_link(ui, run, act);
            });
        } else {
            let place = format!("{} · lesson {} of {} · you play {you}", run.game.name(), run.index + 1, run.count);
            ui.label(egui::RichText::new(place).size(text_size::SMALL).weak());
        }
        // A short phone's title takes one line, not two, and its goal a line less: the room under
        // them is the commands'.
        let short = view.layout.short();
        let (title_size, goal_size) =
            if short { (text_size::BODY + 2.0, text_size::BODY) } else { (text_size::HEADING, text_size::BODY + 1.0) };
        ui.label(egui::RichText::new(&run.lesson.title).size(title_size).strong());
        ui.label(egui::RichText::new(&run.lesson.goal).size(goal_size).strong());
        if !compact {
            intro(ui, view);
        }
        for hint in run.lesson.hints.iter().take(run.hints_shown) {
            ui.label(egui::RichText::new(format!("Hint: {hint}")).size(text_size::SMALL).italics());
        }
        if let Some(way) = run.way_shown(&current.history()).filter(|_| run.standing == Standing::OnTheWay) {
            let text = format!("The lesson's way: {}", decision_words(current, way));
            ui.label(egui::RichText::new(text).size(text_size::SMALL).italics());
        }
        // The rule's link and "Start again" share a row under the goal (over the place line they
        // ran into each other on a phone).
        let again = started && run.standing == Standing::OnTheWay;
        if !compact || again {
            ui.horizontal(|ui| {
                if !compact {
                    rules_link(ui, run, act);
                }
                if again {
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        if ui.small_button("Start again").clicked() {
                            act.lessons.write(LessonCommand::Retry);
                        }
                    });
                }
            });
        }
        standing(ui, current, run, act, compact);
    });
    ui.add_space(4.0);
}

/// "The rule: Captures ›" — opens the rules at the section the lesson teaches.
fn rules_link(ui: &mut egui::Ui, run: &LessonRun, act: &mut PanelActions) {
    let Some(section) = run.lesson.teaches.as_deref().and_then(|id| run.game.rules.section(id)) else { return };
    let Some(text) = rules_link_text(run) else { return };
    if ui.link(text).clicked() {
        act.show_rules.write(crate::app::playing::ShowRules(Some(section.id)));
    }
}

/// The words of the lesson's link to its rule, if it teaches one.
fn rules_link_text(run: &LessonRun) -> Option<egui::RichText> {
    let section = run.lesson.teaches.as_deref().and_then(|id| run.game.rules.section(id))?;
    Some(egui::RichText::new(format!("The rule: {} ›", section.heading)).size(text_size::SMALL))
}

/// The lesson's introduction while the learner works on it.
pub(super) fn intro(ui: &mut egui::Ui, view: &PanelView) {
    let Some(run) = view.lesson.as_deref().filter(|run| run.standing == Standing::OnTheWay) else { return };
    if !run.lesson.intro.is_empty() {
        ui.label(egui::RichText::new(&run.lesson.intro).size(text_size::SMALL));
    }
}

/// The learner's standing and what they can do about it.
fn standing(ui: &mut egui::Ui, current: &CurrentMatch, run: &LessonRun, act: &mut PanelActions, compact: bool) {
    let mut press = None;
    match &run.standing {
        Standing::Solved => {
            ui.label(
                egui::RichText::new(format!("Solved! {}", run.lesson.success)).size(text_size::BODY).color(SOLVED),
            );
            ui.horizontal_wrapped(|ui| {
                if run.is_last() {
                    // On a phone the long words pushed "Again" onto a row of its own and the card
                    // into the tabs under it.
                    let words =
                        if compact { "Play the computer (Easy)" } else { "Play a game against the computer (Easy)" };
                    let text = labelled(ui, words, "E");
                    if crate::app::ui::button(ui, &text).clicked() {
                        press = Some(LessonCommand::PlayComputer);
                    }
                } else if crate::app::ui::button(ui, &labelled(ui, "Next lesson", "E")).clicked() {
                    press = Some(LessonCommand::Next);
                }
                if crate::app::ui::button(ui, "Again").clicked() {
                    press = Some(LessonCommand::Retry);
                }
            });
        }
        Standing::Wrong(why) => {
            ui.label(
                egui::RichText::new(format!("Not quite: {why}"))
                    .size(text_size::BODY)
                    .color(ui.visuals().warn_fg_color),
            );
            if crate::app::ui::button(ui, &labelled(ui, "Retry", "E")).clicked() {
                press = Some(LessonCommand::Retry);
            }
        }
        Standing::Astray => {
            // What the learner played, in words (a sealed commitment too: a lesson keeps no
            // secret from its learner), then the way back.
            let played = current.session.played().iter().rev().find(|p| p.side == run.learner);
            let words = played.map(|p| {
                let mover = side_label(current.start(), run.learner);
                run.game.decision_words(&p.decision, &mover).unwrap_or_else(|| p.decision.clone())
            });
            let text = match words {
                Some(words) => {
                    format!("You chose {words}. That is not this lesson's way: take it back or start again.")
                }
                None => "That is not this lesson's way: take it back or start again.".to_string(),
            };
            ui.label(egui::RichText::new(text).size(text_size::BODY).color(ui.visuals().warn_fg_color));
            ui.horizontal_wrapped(|ui| {
                if crate::app::ui::button(ui, &labelled(ui, "Take it back", "Z")).clicked() {
                    act.commands.write(crate::app::match_state::MatchCommand::UndoToPerson);
                }
                if crate::app::ui::button(ui, "Start again").clicked() {
                    press = Some(LessonCommand::Retry);
                }
            });
        }
        Standing::OnTheWay => {}
    }
    if let Some(command) = press {
        act.lessons.write(command);
    }
}

/// A practice position's card: which one, its grade, the question, then the answer judged (with
/// the solution when it was missed), the streak, and Next.
pub(super) fn practice_card(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    let Some(run) = view.practice.as_deref() else { return };
    let slug = run.game.slug();
    let streak = act.settings.0.practice_streak.get(slug).copied().unwrap_or(0);
    let best = act.settings.0.practice_best.get(slug).copied().unwrap_or(0);
    let mut press = None;
    card(ui, false).inner_margin(egui::Margin::symmetric(10, 6)).show(ui, |ui| {
        ui.set_width(ui.available_width());
        let grade = match run.practice.grade {
            1 => "easy",
            2 => "medium",
            _ => "hard",
        };
        let place = format!("{} · practice {} of {} · {grade}", run.game.name(), run.index + 1, run.count);
        ui.label(egui::RichText::new(place).size(text_size::SMALL).weak());
        ui.label(egui::RichText::new(run.goal()).size(text_size::BODY + 1.0).strong());
        match run.answer {
            Answer::Thinking => {
                let text = format!("Streak {streak} · best {best}");
                ui.label(egui::RichText::new(text).size(text_size::SMALL).weak());
            }
            Answer::Right => {
                let text = format!("Right! Streak {streak} · best {best}. The computer's answer is on the board.");
                ui.label(egui::RichText::new(text).size(text_size::BODY).color(SOLVED));
            }
            Answer::Wrong => {
                let mut start = current.start().clone_box();
                let mut words = Vec::new();
                for d in &run.practice.solution {
                    words.push(decision_words_in(start.as_ref(), d));
                    let _ = start.play_decision(d);
                }
                let text = format!("Not the best. The solution: {}. Streak back to 0.", words.join(", then "));
                ui.label(egui::RichText::new(text).size(text_size::BODY).color(ui.visuals().warn_fg_color));
            }
        }
        if run.answer != Answer::Thinking {
            ui.horizontal_wrapped(|ui| {
                if crate::app::ui::button(ui, &labelled(ui, "Next position", "E")).clicked() {
                    press = Some(LessonCommand::Next);
                }
                if crate::app::ui::button(ui, "Try it again").clicked() {
                    press = Some(LessonCommand::Retry);
                }
            });
        }
    });
    ui.add_space(4.0);
    if let Some(command) = press {
        act.lessons.write(command);
    }
}
