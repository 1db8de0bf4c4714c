//! The review in the replay's panel: progress while the computer thinks, the win-chance graph (a
//! point per turn; a click or tap jumps there), what the review says of the move just shown and of
//! the position now, the key moments with Previous and Next, and each side's summary.

use super::{PanelActions, PanelView};
use crate::ai::review::{GameReview, Judgement, Label, decisions_text};
use crate::app::match_state::{CurrentMatch, side_label};
use crate::app::playing::ReplayStep;
use crate::app::review_state::{AnalysisBoard, ReviewCommand, ReviewShown};
use crate::app::theme::text_size;
use crate::app::ui;
use crate::rules::Side;
use bevy::prelude::*;
use bevy_egui::egui;

/// The graph's height beside the board and on a phone.
const GRAPH_HEIGHT: f32 = 84.0;
const GRAPH_HEIGHT_COMPACT: f32 = 64.0;

/// A label's colour, on the graph and in the text (its glyph says the same without colour).
pub(super) fn label_colour(label: Label) -> egui::Color32 {
    match label {
        Label::Best => egui::Color32::from_rgb(70, 150, 220),
        Label::Good => egui::Color32::from_rgb(110, 170, 110),
        Label::Inaccuracy => egui::Color32::from_rgb(225, 185, 40),
        Label::Mistake => egui::Color32::from_rgb(235, 130, 40),
        Label::Blunder => egui::Color32::from_rgb(215, 50, 50),
    }
}

/// "Review with the computer" and "Analyse from here" for a replay without a review.
pub(super) fn offer(ui: &mut egui::Ui, shown: &ReviewShown, act: &mut PanelActions) {
    if let Some(problem) = &shown.problem {
        ui.label(egui::RichText::new(problem).weak());
    }
    ui.horizontal_wrapped(|ui| {
        if shown.review.is_none() && ui::button(ui, "Review with the computer").clicked() {
            act.review.write(ReviewCommand::Start);
        }
        if ui::button(ui, "Analyse from here").clicked() {
            act.review.write(ReviewCommand::Analyse);
        }
    });
}

/// The analysis board's card: what it is, how the position stands and the computer's line, and
/// the way back to the game.
pub(super) fn analysis_card(
    ui: &mut egui::Ui,
    current: &CurrentMatch,
    board: &AnalysisBoard,
    act: &mut PanelActions,
    compact: bool,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new("Analysis board").size(18.0).strong());
        if ui::button(ui, "Back to the game").clicked() {
            act.review.write(ReviewCommand::BackToGame);
        }
    });
    if !compact {
        ui.label(
            egui::RichText::new("Play either side's moves to try a variation; the game itself is not changed.")
                .weak()
                .size(text_size::SMALL),
        );
    }
    let game = current.position();
    match board.at(current.len()) {
        _ if current.is_over() => {}
        Some(a) => {
            let mut text = format!("{} to play: {} win chance", side_label(game, a.side), percent(a.win));
            if !a.best.is_empty() {
                text.push_str(&format!(" — the computer plays {}", decisions_text(game, &a.best)));
                if !a.line.is_empty() {
                    let mut after = game.clone_box();
                    for d in &a.best {
                        let _ = after.play_decision(d);
                    }
                    text.push_str(&format!(", then {}", decisions_text(after.as_ref(), &a.line)));
                }
            }
            ui.label(text);
            let more = if board.thinking { " · thinking deeper…" } else { "" };
            ui.label(egui::RichText::new(format!("{} iterations{more}", a.iterations)).weak().size(text_size::SMALL));
        }
        None => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("The computer is looking at this position…");
            });
        }
    }
    ui.separator();
}

/// The review's section of the panel.
pub(super) fn section(ui: &mut egui::Ui, current: &CurrentMatch, view: &PanelView, act: &mut PanelActions) {
    let shown = &view.review;
    let Some(review) = &shown.review else {
        offer(ui, shown, act);
        return;
    };
    let compact = view.layout.phone;
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Review").size(18.0).strong());
        let (done, total) = review.progress();
        if done < total {
            let bar = egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                .text(format!("Thinking: {done} of {total} positions"))
                .desired_width((ui.available_width() - 130.0).max(60.0));
            ui.add(bar);
        } else if shown.reloaded {
            ui.label(egui::RichText::new("kept").weak().size(text_size::SMALL))
                .on_hover_text("Kept with the game: opened again without the computer thinking again");
        }
        if ui.small_button("Analyse").on_hover_text("Try other moves from here on the analysis board").clicked() {
            act.review.write(ReviewCommand::Analyse);
        }
        if ui.small_button("Close").clicked() {
            act.review.write(ReviewCommand::Close);
        }
    });
    if let Some(problem) = &shown.problem {
        ui.label(egui::RichText::new(problem).color(ui.visuals().warn_fg_color));
    }
    graph(ui, review, current, if compact { GRAPH_HEIGHT_COMPACT } else { GRAPH_HEIGHT }, &mut act.replay_steps);
    this_move(ui, shown, current);
    key_moments(ui, review, current, &mut act.replay_steps);
    summaries(ui, review, current);
}

/// The turn index shown: how many turns are complete at the position on the board.
fn turns_shown(review: &GameReview, current: &CurrentMatch) -> usize {
    review.turns.iter().filter(|t| t.end <= current.len()).count()
}

/// The win-chance graph of the first side, from the start to the last turn judged.
fn graph(
    ui: &mut egui::Ui,
    review: &GameReview,
    current: &CurrentMatch,
    height: f32,
    steps: &mut MessageWriter<ReplayStep>,
) {
    let curve = review.first_side_curve();
    let width = ui.available_width();
    let (response, painter) = ui.allocate_painter(egui::vec2(width, height), egui::Sense::click());
    let rect = response.rect;
    let visuals = ui.visuals();
    painter.rect_filled(rect, 3.0, visuals.extreme_bg_color);
    let n = curve.len().saturating_sub(1).max(1) as f32;
    let at =
        |i: usize, v: f32| egui::pos2(rect.left() + rect.width() * i as f32 / n, rect.bottom() - rect.height() * v);
    // Half-way: neither side ahead.
    painter.line_segment(
        [at(0, 0.5), egui::pos2(rect.right(), at(0, 0.5).y)],
        egui::Stroke::new(1.0, visuals.weak_text_color().gamma_multiply(0.5)),
    );
    let first = curve.iter().enumerate().filter_map(|(i, v)| v.map(|v| at(i, v))).collect::<Vec<_>>();
    let fill = visuals.text_color().gamma_multiply(0.18);
    for pair in first.windows(2) {
        let base = |p: egui::Pos2| egui::pos2(p.x, rect.bottom());
        painter.add(egui::Shape::convex_polygon(
            vec![pair[0], pair[1], base(pair[1]), base(pair[0])],
            fill,
            egui::Stroke::NONE,
        ));
    }
    painter.add(egui::Shape::line(first, egui::Stroke::new(1.5, visuals.strong_text_color())));
    for (t, turn) in review.turns.iter().enumerate() {
        let Some(j) = review.judgement(t) else { continue };
        if j.label >= Label::Inaccuracy {
            let v = if turn.side == Side::First { j.win_after } else { 1.0 - j.win_after };
            let radius = 2.5 + (j.label as u8 - Label::Inaccuracy as u8) as f32;
            painter.circle_filled(at(t + 1, v), radius, label_colour(j.label));
        }
    }
    let shown = turns_shown(review, current);
    let x = at(shown, 0.0).x;
    painter.line_segment(
        [egui::pos2(x, rect.top()), egui::pos2(x, rect.bottom())],
        egui::Stroke::new(2.0, visuals.selection.bg_fill),
    );
    if response.clicked()
        && let Some(pointer) = response.interact_pointer_pos()
    {
        let i = (((pointer.x - rect.left()) / rect.width()) * n).round().clamp(0.0, n) as usize;
        let end = if i == 0 { 0 } else { review.turns[i - 1].end };
        steps.write(ReplayStep::To(end));
    }
    response.on_hover_text("Win chance of the first player over the game: click a move to go there");
}

/// A win chance in words.
fn percent(win: f32) -> String {
    format!("{:.0}%", win * 100.0)
}

/// What the review says of the turns that end at the position shown, and of the position now.
fn this_move(ui: &mut egui::Ui, shown: &ReviewShown, current: &CurrentMatch) {
    let Some(review) = &shown.review else { return };
    let game = current.position();
    for t in shown.turns_ending_at(current.len()) {
        let turn = &review.turns[t];
        let who = side_label(game, turn.side);
        let Some(j) = review.judgement(t) else {
            ui.label(egui::RichText::new(format!("{}. {who} {}: thinking…", turn.number, turn.text)).weak());
            continue;
        };
        ui.label(
            egui::RichText::new(format!(
                "{}. {who} {} {} — {} ({} → {})",
                turn.number,
                turn.text,
                j.label.glyph(),
                j.label.name(),
                percent(j.win_before),
                percent(j.win_after)
            ))
            .color(label_colour(j.label))
            .strong(),
        );
        if j.label > Label::Best && !j.best.is_empty() {
            // Made once per turn shown (the reason replays the better turn), kept in egui's memory.
            let id = egui::Id::new(("review-better", t, review.turns[t].end, current.len()));
            let text = ui.ctx().data(|d| d.get_temp::<String>(id)).unwrap_or_else(|| {
                let text = better_text(review, current, t, &j);
                ui.ctx().data_mut(|d| d.insert_temp(id, text.clone()));
                text
            });
            ui.label(text);
        }
    }
    if let Some(analysis) = shown.analysis_at(current.len())
        && !current.is_over()
        && !analysis.best.is_empty()
    {
        let before = current.position();
        let best = decisions_text(before, &analysis.best);
        let mut text = format!(
            "{} to play: {} — the computer plays {best}",
            side_label(game, analysis.side),
            percent(analysis.win)
        );
        if !analysis.line.is_empty() {
            let mut after = before.clone_box();
            for d in &analysis.best {
                let _ = after.play_decision(d);
            }
            text.push_str(&format!(", then {}", decisions_text(after.as_ref(), &analysis.line)));
        }
        ui.label(egui::RichText::new(text).size(text_size::SMALL));
    }
}

/// "Better: D4 — it captures 3 stones; the answer B5* wins at once."
fn better_text(review: &GameReview, current: &CurrentMatch, t: usize, j: &Judgement) -> String {
    let turn = &review.turns[t];
    let prefix = review.probes[turn.probe].prefix;
    let before = current.position_before(prefix).unwrap_or(current.position());
    let mut text = format!("Better: {}", decisions_text(before, &j.best));
    // What the better turn achieves, when something stands out (a capture, a threat, ground).
    if let Ok(reason) = crate::ai::turn_reason(before, turn.side, &j.best)
        && !matches!(reason, crate::ai::HintReason::Plays(_))
    {
        text.push_str(&format!(" — it {}", reason.words()));
    }
    if !j.reply.is_empty() {
        let reply = decisions_text(current.position(), &j.reply);
        let wins = review.turns.get(t + 1).is_some_and(|next| next.over_after.is_some())
            || review.probes.iter().zip(&review.analyses).any(|(p, a)| {
                p.prefix == turn.end && a.as_ref().is_some_and(|a| a.wins_at_once && a.side != turn.side)
            });
        text.push_str(&format!("; the answer {reply}{}", if wins { " wins at once" } else { "" }));
    }
    text
}

/// The key moments, both sides' largest drops, with Previous and Next.
fn key_moments(ui: &mut egui::Ui, review: &GameReview, current: &CurrentMatch, steps: &mut MessageWriter<ReplayStep>) {
    let moments = review.key_moments();
    if moments.is_empty() {
        return;
    }
    let shown = turns_shown(review, current);
    // Turn t is shown once t + 1 turns are complete.
    let previous = moments.iter().rev().find(|&&t| t + 1 < shown).copied();
    let next = moments.iter().find(|&&t| t + 1 > shown).copied();
    let here = moments.iter().position(|&t| t + 1 == shown);
    ui.horizontal(|ui| {
        let label = match here {
            Some(i) => format!("Key moment {} of {}", i + 1, moments.len()),
            None => format!("{} key moments", moments.len()),
        };
        ui.label(label);
        if ui.add_enabled(previous.is_some(), egui::Button::new("< Previous")).clicked()
            && let Some(t) = previous
        {
            steps.write(ReplayStep::To(review.turns[t].end));
        }
        if ui.add_enabled(next.is_some(), egui::Button::new("Next >")).clicked()
            && let Some(t) = next
        {
            steps.write(ReplayStep::To(review.turns[t].end));
        }
    });
}

/// Each side's accuracy and how many of its moves got each label, as a small table.
fn summaries(ui: &mut egui::Ui, review: &GameReview, current: &CurrentMatch) {
    let rows: Vec<_> = Side::BOTH.into_iter().map(|side| (side, review.summary(side))).collect();
    if rows.iter().all(|(_, s)| s.accuracy.is_none()) {
        return;
    }
    let small = |text: String| egui::RichText::new(text).size(text_size::SMALL);
    egui::Grid::new("review summary").spacing(egui::vec2(10.0, 0.0)).min_row_height(14.0).show(ui, |ui| {
        ui.label(small(String::new()));
        ui.label(small("accuracy".into())).on_hover_text("lichess's accuracy: 100% when no move lost any win chance");
        for label in Label::ALL {
            let head = if label.glyph().is_empty() { label.name().to_string() } else { label.glyph().to_string() };
            ui.label(small(head).color(label_colour(label))).on_hover_text(label_meaning(label));
        }
        ui.end_row();
        for (side, s) in &rows {
            ui.label(small(side_label(current.position(), *side)));
            ui.label(small(s.accuracy.map_or("–".into(), |a| format!("{a:.0}%"))));
            for label in Label::ALL {
                ui.label(small(s.count(label).to_string()));
            }
            ui.end_row();
        }
    });
}

/// What a label means, with its threshold.
fn label_meaning(label: Label) -> String {
    use crate::ai::review::{BEST, BLUNDER, INACCURACY, MISTAKE};
    let points = |x: f32| format!("{:.0}", x * 100.0);
    match label {
        Label::Best => format!("best: the computer's own choice, or within {} points of its win chance", points(BEST)),
        Label::Good => format!("good: loses less than {} points of win chance", points(INACCURACY)),
        Label::Inaccuracy => {
            format!("inaccuracy (?!): loses {} to {} points of win chance", points(INACCURACY), points(MISTAKE))
        }
        Label::Mistake => format!("mistake (?): loses {} to {} points of win chance", points(MISTAKE), points(BLUNDER)),
        Label::Blunder => {
            format!(
                "blunder (??): loses {} points of win chance or more, or lets the opponent win at once",
                points(BLUNDER)
            )
        }
    }
}
