//! The turn builder: clicks and cursor presses become the engines' atomic decisions. A space is
//! chosen; the legal decisions that start there are offered (one is played at once, a start-and-
//! destination pair waits for the destination, several of the same space open a choice list).
//! Decisions that name no space (pass, end turn, swap, figure choices) are in the HUD and behind
//! Tab or the X button.

use super::cursor::{BoardCursor, step_towards};
use super::project::BoardState;
use crate::app::input::{Action, ActionPressed};
use crate::app::match_state::CurrentMatch;
use crate::app::menus::{MenuClicked, MenuFocus, MenuInput, menu_inputs_from};
use crate::app::screen::Screen;
use crate::app::secrecy::{Secrecy, undo_allowed};
use crate::app::turn::{DecisionChosen, TurnSystems};
use crate::rules::cells_in_token;
use bevy::prelude::*;

/// A space was chosen (click, or Select on the cursor).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct CellChosen(pub String);

/// A piece dragged from one space and dropped on another (mouse): the decision from `from` to `to`.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct DragChosen {
    pub from: String,
    pub to: String,
}

/// The decisions that go from `from` to `to` (their first two spaces).
pub fn decisions_between<'a>(decisions: &'a [String], from: &str, to: &str) -> Vec<&'a String> {
    decisions
        .iter()
        .filter(|d| {
            let cells = cells_in_token(d);
            cells.first() == Some(&from) && cells.get(1) == Some(&to)
        })
        .collect()
}

/// An entry of the choice list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    Decision(String),
    /// Use this space as the start of a decision that continues on another space.
    StartFrom(String),
}

impl Choice {
    pub fn label(&self) -> String {
        match self {
            Choice::Decision(d) => d.clone(),
            Choice::StartFrom(c) => format!("{c} -> (continue)"),
        }
    }
}

/// What the player has chosen so far this decision.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct TurnBuilder {
    /// The start space of a decision that needs a second space.
    pub start: Option<String>,
    /// The open choice list (empty when closed).
    pub choices: Vec<Choice>,
}

impl TurnBuilder {
    /// The spaces where the decision can continue from `start` (highlighted on the board).
    pub fn destinations(&self, decisions: &[String]) -> Vec<String> {
        let Some(start) = &self.start else { return Vec::new() };
        let mut out: Vec<String> = decisions
            .iter()
            .filter_map(|d| {
                let cells = cells_in_token(d);
                (cells.first() == Some(&start.as_str()) && cells.len() > 1).then(|| cells[1].to_string())
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn reset(&mut self) {
        self.start = None;
        self.choices.clear();
    }
}

/// Decisions that name no space.
pub fn spaceless(decisions: &[String]) -> Vec<String> {
    decisions.iter().filter(|d| cells_in_token(d).is_empty()).cloned().collect()
}

/// What choosing `cell` means given the legal `decisions` and the builder's state.
pub fn on_cell(builder: &mut TurnBuilder, decisions: &[String], cell: &str) -> Option<String> {
    if let Some(start) = builder.start.clone() {
        if start == cell {
            builder.reset();
            return None;
        }
        let matching: Vec<&String> = decisions
            .iter()
            .filter(|d| {
                let c = cells_in_token(d);
                c.first() == Some(&start.as_str()) && c.get(1) == Some(&cell)
            })
            .collect();
        builder.start = None;
        match matching.len() {
            0 => {}
            1 => return Some(matching[0].clone()),
            _ => {
                builder.choices = matching.into_iter().cloned().map(Choice::Decision).collect();
                return None;
            }
        }
    }
    let starting_here: Vec<&String> = decisions.iter().filter(|d| cells_in_token(d).first() == Some(&cell)).collect();
    let single: Vec<String> =
        starting_here.iter().filter(|d| cells_in_token(d).len() == 1).map(|d| d.to_string()).collect();
    let continues = starting_here.iter().any(|d| cells_in_token(d).len() > 1);
    match (single.len(), continues) {
        (0, false) => None,
        (1, false) => Some(single[0].clone()),
        (0, true) => {
            builder.start = Some(cell.to_string());
            None
        }
        _ => {
            builder.choices = single.into_iter().map(Choice::Decision).collect();
            if continues {
                builder.choices.push(Choice::StartFrom(cell.to_string()));
            }
            None
        }
    }
}

pub fn plugin(app: &mut App) {
    app.add_message::<CellChosen>().add_message::<DragChosen>();
    app.init_resource::<TurnBuilder>();
    app.add_systems(OnEnter(Screen::Playing), (|mut b: ResMut<TurnBuilder>| b.reset(), crate::app::menus::reset_focus));
    app.add_systems(Update, board_input.in_set(TurnSystems::Intent).before(crate::app::turn::take_intent));
}

/// Every action on the playing screen: cursor, choice list, undo/redo, leaving.
#[allow(clippy::too_many_arguments)]
fn board_input(
    mut actions: MessageReader<ActionPressed>,
    mut clicks: MessageReader<MenuClicked>,
    (mut cells, mut drags): (MessageReader<CellChosen>, MessageReader<DragChosen>),
    mut builder: ResMut<TurnBuilder>,
    mut focus: ResMut<MenuFocus>,
    mut cursor: ResMut<BoardCursor>,
    state: Res<BoardState>,
    current: Option<ResMut<CurrentMatch>>,
    mut decide: MessageWriter<DecisionChosen>,
    mut next: ResMut<NextState<Screen>>,
    secrecy: Res<Secrecy>,
    thinking: Res<crate::app::ai_player::Thinking>,
    mut hint_requests: MessageWriter<crate::app::ai_player::HintRequested>,
    mut hints: ResMut<crate::app::settings_io::CurrentSettings>,
    mut tweens: Query<&mut super::fx::Tween>,
    replay: Res<crate::app::replay::Replay>,
) {
    let Some(mut current) = current else { return };
    if replay.active {
        // The replay controls take the input (replay::replay_keys).
        actions.clear();
        clicks.clear();
        cells.clear();
        drags.clear();
        return;
    }
    if !tweens.is_empty() && (!actions.is_empty() || !clicks.is_empty() || !cells.is_empty()) {
        // A press while the board animates only skips to the end of the animations.
        super::fx::finish_all(&mut tweens);
        actions.clear();
        clicks.clear();
        cells.clear();
        drags.clear();
        return;
    }
    if secrecy.handover.is_some() {
        // The hand-over screen takes the input (confirm_handover); presses must not reach the board.
        actions.clear();
        clicks.clear();
        cells.clear();
        drags.clear();
        return;
    }
    let actions: Vec<Action> = actions.read().map(|a| a.0).collect();
    let clicks: Vec<MenuClicked> = clicks.read().copied().collect();
    let mut chosen_cells: Vec<String> = cells.read().map(|c| c.0.clone()).collect();
    let dragged: Vec<DragChosen> = drags.read().cloned().collect();
    let decisions = current.decisions_now();
    // While the computer is to move, the person's board input must not decide for it.
    let computer_to_move = !current.is_over() && current.acting_side().is_some_and(|s| current.player_of(s).is_some());
    if computer_to_move {
        builder.reset();
    }

    if !builder.choices.is_empty() {
        let len = builder.choices.len() + 1; // the last entry closes the list
        for input in menu_inputs_from(&mut focus, len, &actions, &clicks) {
            match input {
                MenuInput::Activate(i) if i < builder.choices.len() => {
                    match builder.choices[i].clone() {
                        Choice::Decision(d) => {
                            decide.write(DecisionChosen(d));
                            builder.reset();
                        }
                        Choice::StartFrom(c) => {
                            builder.choices.clear();
                            builder.start = Some(c);
                        }
                    }
                    break;
                }
                MenuInput::Activate(_) | MenuInput::Back => {
                    builder.reset();
                    break;
                }
                MenuInput::Adjust(..) => {}
            }
        }
        return;
    }

    let points: Vec<(f32, f32)> =
        state.view.as_ref().map(|v| v.cells.iter().map(|c| (c.x, c.y)).collect()).unwrap_or_default();
    for action in actions {
        let dir = match action {
            Action::Up => Vec2::Y,
            Action::Down => -Vec2::Y,
            Action::Left => -Vec2::X,
            Action::Right => Vec2::X,
            Action::Select => {
                if let Some(v) = &state.view
                    && let Some(c) = v.cells.get(cursor.index)
                {
                    chosen_cells.push(c.name.clone());
                }
                continue;
            }
            Action::Confirm if thinking.is_thinking() => {
                thinking.move_now();
                continue;
            }
            Action::CycleOption | Action::Confirm => {
                let others = spaceless(&decisions);
                if !others.is_empty() && !computer_to_move {
                    builder.start = None;
                    builder.choices = others.into_iter().map(Choice::Decision).collect();
                    focus.0 = 0;
                }
                continue;
            }
            Action::Suggest => {
                hint_requests.write(crate::app::ai_player::HintRequested);
                continue;
            }
            Action::Hints => {
                hints.0.show_hints = !hints.0.show_hints;
                continue;
            }
            Action::Undo => {
                if undo_allowed(&current, &secrecy) {
                    current.undo_to_person();
                }
                builder.reset();
                continue;
            }
            Action::Redo => {
                current.redo();
                builder.reset();
                continue;
            }
            Action::Back | Action::Menu => {
                if builder.start.is_some() {
                    builder.reset();
                } else {
                    next.set(Screen::Title);
                }
                continue;
            }
            _ => continue,
        };
        if !points.is_empty() {
            cursor.index = cursor.index.min(points.len() - 1);
            if let Some(i) = step_towards(&points, cursor.index, dir) {
                cursor.index = i;
            }
        }
    }
    if current.is_over() {
        chosen_cells.clear();
    } else if computer_to_move && (!chosen_cells.is_empty() || !dragged.is_empty()) {
        // The cursor still moves, but the board waits for the computer's decision.
        current.message = Some("The computer is to move.".to_string());
        chosen_cells.clear();
    }
    let over = current.is_over();
    for DragChosen { from, to } in dragged.into_iter().filter(|_| !over && !computer_to_move) {
        builder.reset();
        let between = decisions_between(&decisions, &from, &to);
        match between.as_slice() {
            [] => current.message = Some(format!("No move goes from {from} to {to}.")),
            [one] => {
                decide.write(DecisionChosen((*one).clone()));
            }
            several => {
                builder.choices = several.iter().map(|d| Choice::Decision((*d).clone())).collect();
                focus.0 = 0;
            }
        }
    }
    for cell in chosen_cells {
        if let Some(v) = &state.view
            && let Some(i) = v.cells.iter().position(|c| c.name == cell)
        {
            cursor.index = i;
        }
        focus.0 = 0;
        match on_cell(&mut builder, &decisions, &cell) {
            Some(d) => {
                decide.write(DecisionChosen(d));
            }
            None if builder.start.is_none() && builder.choices.is_empty() => {
                current.message = Some(format!("No move starts at {cell}."));
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_single_decision_on_a_space_is_played_at_once() {
        let mut b = TurnBuilder::default();
        assert_eq!(on_cell(&mut b, &list(&["C3", "D4", "swap"]), "C3"), Some("C3".into()));
    }

    #[test]
    fn two_decisions_on_one_space_open_a_choice() {
        let mut b = TurnBuilder::default();
        assert_eq!(on_cell(&mut b, &list(&["C3", "C3*", "D4"]), "C3"), None);
        assert_eq!(b.choices, vec![Choice::Decision("C3".into()), Choice::Decision("C3*".into())]);
    }

    #[test]
    fn start_then_destination() {
        let mut b = TurnBuilder::default();
        let d = list(&["k9>j9", "k9>k8", "+k10"]);
        assert_eq!(on_cell(&mut b, &d, "k9"), None);
        assert_eq!(b.start.as_deref(), Some("k9"));
        assert_eq!(b.destinations(&d), list(&["j9", "k8"]));
        assert_eq!(on_cell(&mut b, &d, "k8"), Some("k9>k8".into()));
        assert_eq!(b.start, None);
    }

    #[test]
    fn mixed_single_and_continuing_decisions_offer_both() {
        let mut b = TurnBuilder::default();
        let d = list(&["+d4", "d4>e5"]);
        assert_eq!(on_cell(&mut b, &d, "d4"), None);
        assert_eq!(b.choices, vec![Choice::Decision("+d4".into()), Choice::StartFrom("d4".into())]);
    }

    #[test]
    fn choosing_the_start_again_cancels() {
        let mut b = TurnBuilder::default();
        let d = list(&["a1>a2"]);
        on_cell(&mut b, &d, "a1");
        assert_eq!(on_cell(&mut b, &d, "a1"), None);
        assert_eq!(b, TurnBuilder::default());
    }

    #[test]
    fn spaceless_decisions_are_found() {
        assert_eq!(spaceless(&list(&["pass", "C3", "swap"])), list(&["pass", "swap"]));
    }
}
