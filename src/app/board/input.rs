//! Every press on the playing screen: the cursor, choosing spaces and drags, the choice list,
//! decisions that name no space (Tab), undo and redo, hints, "move now", leaving the board.

use super::builder::{decisions_between, on_cell};
use super::cursor::cursor_step;
use super::project::BoardState;
use crate::app::AppSystems;
use crate::app::input::{Action, ActionPressed};
use crate::app::lesson_state::LessonCommand;
use crate::app::match_state::{CurrentMatch, MatchCommand};
use crate::app::playing::{
    BoardCursor, CellChosen, Choice, ComputerStatus, DecisionChosen, DragChosen, HintRequested, MoveNow, Offer, Replay,
    Secrecy, TurnBuilder, TurnWarning, offers_now, single_spaceless, spaceless, undo_allowed,
};
use crate::app::screen::Screen;
use crate::app::settings::CurrentSettings;
use crate::app::timeline::Timeline;
use crate::app::ui::{MenuClicked, MenuFocus, MenuInput, menu_inputs_from, reset_focus};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Playing), (|mut b: ResMut<TurnBuilder>| b.reset(), reset_focus));
    app.add_systems(Update, board_input.in_set(AppSystems::Choose));
}

/// This frame's presses on the board.
#[derive(SystemParam)]
struct BoardPresses<'w, 's> {
    actions: MessageReader<'w, 's, ActionPressed>,
    clicks: MessageReader<'w, 's, MenuClicked>,
    cells: MessageReader<'w, 's, CellChosen>,
    drags: MessageReader<'w, 's, DragChosen>,
}

impl BoardPresses<'_, '_> {
    fn any(&self) -> bool {
        !self.actions.is_empty() || !self.clicks.is_empty() || !self.cells.is_empty()
    }

    fn clear(&mut self) {
        self.actions.clear();
        self.clicks.clear();
        self.cells.clear();
        self.drags.clear();
    }
}

/// What the board's presses write to.
#[derive(SystemParam)]
struct BoardOutcomes<'w> {
    decide: MessageWriter<'w, DecisionChosen>,
    commands: MessageWriter<'w, MatchCommand>,
    hint_requests: MessageWriter<'w, HintRequested>,
    move_now: MessageWriter<'w, MoveNow>,
    next: ResMut<'w, NextState<Screen>>,
    lessons: MessageWriter<'w, LessonCommand>,
    settings: ResMut<'w, CurrentSettings>,
    builder: ResMut<'w, TurnBuilder>,
    focus: ResMut<'w, MenuFocus>,
    cursor: ResMut<'w, BoardCursor>,
    warning: ResMut<'w, TurnWarning>,
}

/// What the board's presses read.
#[derive(SystemParam)]
struct BoardContext<'w> {
    state: Res<'w, BoardState>,
    secrecy: Res<'w, Secrecy>,
    computer: Res<'w, ComputerStatus>,
    replay: Res<'w, Replay>,
}

fn board_input(
    mut presses: BoardPresses,
    mut out: BoardOutcomes,
    context: BoardContext,
    current: Option<ResMut<CurrentMatch>>,
    mut timeline: ResMut<Timeline>,
) {
    let Some(mut current) = current else { return };
    if context.replay.active || context.secrecy.handover.is_some() {
        // The replay controls (`replay`) or the hand-over screen (`handover`) take the input.
        presses.clear();
        return;
    }
    if timeline.elapsed < timeline.end && presses.any() {
        // A press while the board animates skips to the end (animations, flourishes, sounds) and
        // then acts where it landed: the match is already past what is being shown, and a second
        // tap to do what the first asked read as a lost tap (a newcomer playtest).
        timeline.skip();
    }
    let mut actions: Vec<Action> = presses.actions.read().map(|a| a.0).collect();
    if out.warning.pending.is_some() {
        answer_warning(&mut out, &mut actions);
    }
    let clicks: Vec<MenuClicked> = presses.clicks.read().copied().collect();
    let mut chosen_cells: Vec<String> = presses.cells.read().map(|c| c.0.clone()).collect();
    let dragged: Vec<DragChosen> = presses.drags.read().cloned().collect();
    let decisions = offers_now(&current);
    // While the computer (or an online opponent) is to move, the person's board input must not
    // decide for it.
    let computer_to_move = !current.is_over() && current.acting_side().is_some_and(|s| !current.person_plays(s));
    if computer_to_move && *out.builder != TurnBuilder::default() {
        out.builder.reset();
    }
    if !out.builder.choices.is_empty() {
        choose_from_list(&mut out, &actions, &clicks);
        return;
    }
    for action in actions {
        if let Some(cell) = apply_action(action, &mut current, &mut out, &context, &decisions, computer_to_move) {
            chosen_cells.push(cell);
        }
    }
    if current.is_over() {
        return;
    }
    if computer_to_move {
        if !chosen_cells.is_empty() || !dragged.is_empty() {
            // The cursor still moves, but the board waits for the computer's decision.
            current.message = Some(if current.remote.is_some() {
                "Your opponent is to move: your move comes after theirs.".to_string()
            } else if current.scripted.is_some() {
                "The lesson's opponent is to move: your move comes after its reply.".to_string()
            } else {
                "The computer is thinking: your move comes after its reply.".to_string()
            });
        }
        return;
    }
    finish_split_drag(&mut current, &mut out, &decisions);
    for drag in dragged {
        apply_drag(&drag, &mut current, &mut out, &decisions);
    }
    for cell in chosen_cells {
        apply_cell(&cell, &mut current, &mut out, &context, &decisions);
    }
}

/// The open choice list takes the presses: move its focus, choose an entry, or close it.
fn choose_from_list(out: &mut BoardOutcomes, actions: &[Action], clicks: &[MenuClicked]) {
    let len = out.builder.choices.len() + 1; // the last entry closes the list
    for input in menu_inputs_from(&mut out.focus, len, actions, clicks) {
        match input {
            MenuInput::Activate(i) if i < out.builder.choices.len() => {
                match out.builder.choices[i].clone() {
                    Choice::Decision(d) => {
                        out.decide.write(DecisionChosen(d));
                        out.builder.reset();
                    }
                    Choice::StartFrom(c) => {
                        out.builder.choices.clear();
                        out.builder.start = Some(c);
                    }
                }
                return;
            }
            MenuInput::Activate(_) | MenuInput::Back => {
                out.builder.reset();
                return;
            }
            MenuInput::Adjust(..) => {}
        }
    }
}

/// The keys of the warning before a decision: Confirm or Select makes it anyway, Back keeps
/// playing; undo takes an action back as usual; the cursor still moves, and choosing a space
/// goes on with the turn (which answers the warning).
fn answer_warning(out: &mut BoardOutcomes, actions: &mut Vec<Action>) {
    actions.retain(|action| match action {
        Action::Confirm | Action::Select => {
            if let Some(chosen) = out.warning.confirm() {
                out.decide.write(chosen);
            }
            false
        }
        Action::Back => {
            out.warning.pending = None;
            false
        }
        _ => true,
    });
}

/// One action on the board; returns the space it chose (Select on the cursor), if any.
fn apply_action(
    action: Action,
    current: &mut ResMut<CurrentMatch>,
    out: &mut BoardOutcomes,
    context: &BoardContext,
    decisions: &[Offer],
    computer_to_move: bool,
) -> Option<String> {
    let direction = match action {
        Action::Up => Vec2::Y,
        Action::Down => -Vec2::Y,
        Action::Left => -Vec2::X,
        Action::Right => Vec2::X,
        Action::Select => {
            let view = context.state.view.as_ref()?;
            return view.cells.get(out.cursor.index).map(|c| c.name.clone());
        }
        Action::Confirm if context.computer.is_thinking() => {
            out.move_now.write(MoveNow);
            return None;
        }
        Action::Confirm if !computer_to_move && single_spaceless(decisions).is_some() => {
            // One decision that names no space (Gravel's "End turn", a pass): the key makes it.
            out.decide.write(DecisionChosen(single_spaceless(decisions)?.to_string()));
            return None;
        }
        Action::CycleOption | Action::Confirm => {
            let others = spaceless(decisions);
            if !others.is_empty() && !computer_to_move {
                out.builder.start = None;
                out.builder.choices = others.into_iter().map(|o| Choice::Decision(o.token.clone())).collect();
                out.focus.0 = 0;
            }
            return None;
        }
        Action::Suggest => {
            out.hint_requests.write(HintRequested);
            return None;
        }
        Action::Hints => {
            out.settings.0.show_hints = !out.settings.0.show_hints;
            return None;
        }
        Action::Undo => {
            if undo_allowed(current, &context.secrecy) {
                out.commands.write(MatchCommand::UndoToPerson);
            }
            out.builder.reset();
            return None;
        }
        Action::Redo => {
            out.commands.write(MatchCommand::Redo);
            out.builder.reset();
            return None;
        }
        Action::Back | Action::Menu => {
            if out.builder.start.is_some() {
                out.builder.reset();
            } else if current.exercise {
                // A lesson or a practice position: back to the game's lessons.
                out.lessons.write(LessonCommand::Leave);
            } else {
                out.next.set(Screen::Title);
            }
            return None;
        }
        Action::CursorAxis => return None,
    };
    let view = context.state.view.as_ref()?;
    if !view.cells.is_empty() {
        out.cursor.index = out.cursor.index.min(view.cells.len() - 1);
        if let Some(i) = cursor_step(view, out.cursor.index, direction) {
            out.cursor.index = i;
        }
    }
    None
}

/// A piece dropped on another space: the one decision between them, or a choice among several.
fn apply_drag(drag: &DragChosen, current: &mut ResMut<CurrentMatch>, out: &mut BoardOutcomes, decisions: &[Offer]) {
    out.builder.reset();
    match decisions_between(decisions, &drag.from, &drag.to).as_slice() {
        [] => match split_drag(current, decisions, drag) {
            // A game whose moves are two decisions (Throngs: the start of a part, then where it
            // ends): the start now, the end on the next frame, once the start is made.
            Some(SplitDrag::StartThenEnd(token)) => {
                out.decide.write(DecisionChosen(token));
                out.builder.drop_after_start = Some(drag.clone());
            }
            Some(SplitDrag::End(token)) => {
                out.decide.write(DecisionChosen(token));
            }
            None => current.message = Some(format!("No move goes from {} to {}.", drag.from, drag.to)),
        },
        [one] => {
            out.decide.write(DecisionChosen(one.token.clone()));
        }
        several => {
            out.builder.choices = several.iter().map(|o| Choice::Decision(o.token.clone())).collect();
            out.builder.at = Some(drag.to.clone());
            out.focus.0 = 0;
        }
    }
}

/// How a drag plays in a game that asks for a move's start and its end as two decisions.
enum SplitDrag {
    /// The start is this decision of its own: make it, then the end.
    StartThenEnd(String),
    /// The dragged piece's move is already started: this decision ends it there.
    End(String),
}

/// The two-decision reading of `drag`, when the game has one.
fn split_drag(current: &CurrentMatch, decisions: &[Offer], drag: &DragChosen) -> Option<SplitDrag> {
    let only = |cell: &str| decisions.iter().find(|o| o.picks.len() == 1 && o.picks[0] == cell);
    let view = current.position().board_view();
    let started_here = view.cell_named(&drag.from).is_some_and(|c| c.marks.travelling.is_some());
    if started_here {
        return only(&drag.to).map(|o| SplitDrag::End(o.token.clone()));
    }
    only(&drag.from).filter(|o| o.opens_move).map(|o| SplitDrag::StartThenEnd(o.token.clone()))
}

/// The second half of a split drag, on the frame after its start was made: the end, if the start
/// left the dragged piece's move open (a start that ends the move at once takes no end).
fn finish_split_drag(current: &mut ResMut<CurrentMatch>, out: &mut BoardOutcomes, decisions: &[Offer]) {
    let Some(drag) = out.builder.drop_after_start.take() else { return };
    let view = current.position().board_view();
    if view.cell_named(&drag.from).is_some_and(|c| c.marks.travelling.is_some()) {
        apply_drag(&drag, current, out, decisions);
    }
}

/// A space chosen by a click or by Select on the cursor.
fn apply_cell(
    cell: &str,
    current: &mut ResMut<CurrentMatch>,
    out: &mut BoardOutcomes,
    context: &BoardContext,
    decisions: &[Offer],
) {
    if let Some(i) = context.state.index_of(cell) {
        out.cursor.index = i;
    }
    out.focus.0 = 0;
    match on_cell(&mut out.builder, decisions, cell) {
        Some(d) => {
            out.decide.write(DecisionChosen(d));
        }
        None if out.builder.start.is_none() && out.builder.choices.is_empty() => {
            // Say why, where the game can, and what can be done instead.
            let game = current.position();
            let why = game.board_view().cell_named(cell).and_then(|c| game.why_nothing_at(c.cell));
            let why = why.map_or_else(String::new, |why| format!(": {why}"));
            let to_do = game.to_do().map_or_else(String::new, |t| format!(" {t}."));
            current.message = Some(format!("Nothing to do at {cell}{why}.{to_do}"));
        }
        None => {}
    }
}
