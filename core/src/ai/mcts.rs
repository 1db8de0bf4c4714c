//! Monte Carlo tree search over atomic decisions, with simultaneous nodes and tree reuse.
//!
//! UCT (UCB1) at sequential nodes, decoupled EXP3 over each side's commitment at simultaneous
//! nodes, transpositions by Zobrist key, and the subtree of the observed decisions kept between
//! searches.

use super::budget::{Budget, SearchReport, StopReason};
use super::policy::{DrawEvaluator, Evaluator, PlayoutPolicy, UniformPolicy, playout_value_and_length};
use super::{DecideError, Strategy, check_may_decide};
use crate::rules::{GameRng, Rules, Side, Status, ToMove, pick_index, seeded};
use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use web_time::Instant;

/// "No node / no choice" in the index links of the tree.
const NONE: u32 = u32::MAX;
/// The root is always node 0 (reuse compacts the kept subtree so that this stays true).
const ROOT: u32 = 0;
/// An iteration that goes deeper than this stops and plays out: transpositions can make a cycle
/// (a repeated position), and selection would follow it for ever.
const MAX_DEPTH: usize = 2_000;

/// Tuning of the search itself (the budget is given per decision).
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The UCB1 exploration constant for rewards scaled to [0, 1]. `sqrt(2)` is the value for which
    /// UCB1's regret bound holds (Auer et al. 2002); lower values search deeper and narrower.
    pub exploration: f32,
    /// The share of uniform exploration in the EXP3 mix used at simultaneous nodes.
    pub simultaneous_exploration: f32,
    /// Decisions a playout may make before the evaluator scores the position instead.
    pub playout_cap: u32,
    /// The tree stops growing at this many nodes (iterations then only play out from its leaves).
    pub max_nodes: usize,
    /// Share one node between the ways of reaching the same position, for games whose `zobrist()`
    /// is nonzero (others are searched as a plain tree). Statistics of decisions stay per edge.
    pub transpositions: bool,
    /// Values found `d` decisions below the root count `(1 − length_discount)^d` of their size,
    /// so that of two wins the sooner one is preferred. Without it a side that wins whatever it
    /// does first (a Gravel turn of several actions) can put the win off until it is gone.
    pub length_discount: f32,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: std::f32::consts::SQRT_2,
            simultaneous_exploration: 0.1,
            playout_cap: 1_000,
            max_nodes: 1_000_000,
            transpositions: true,
            length_discount: 0.0,
        }
    }
}

/// One decision of a choice and what the search learnt about it.
#[derive(Clone, Debug)]
struct Arm<M> {
    mv: M,
    /// The node (or, inside a commitment tree, the side's next choice) this decision leads to.
    child: u32,
    visits: u32,
    /// Sum of rewards in [-1, 1] from the point of view of the choice's side.
    reward: f32,
    /// EXP3's importance-weighted sum of rewards scaled to [0, 1] (commitment choices only).
    gain: f32,
}

/// The decisions open to one side at one point of the tree, with their statistics.
#[derive(Clone, Debug)]
struct Choice<M> {
    side: Side,
    /// Inside a commitment tree (a simultaneous node) arms lead to the side's next choice, else to
    /// a node.
    in_commitment: bool,
    /// Whether `arms` was generated; arms are generated when the choice is first reached.
    expanded: bool,
    /// Shuffled when generated, so untried arms are simply `arms[untried..]` in random order.
    arms: Vec<Arm<M>>,
    untried: usize,
    visits: u32,
}

impl<M> Choice<M> {
    /// A commitment is complete (sealed) once its side has no decision left at this point.
    fn is_complete(&self) -> bool {
        self.expanded && self.arms.is_empty()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeKind {
    /// Created, not yet searched through.
    Unexpanded,
    /// One side decides: the choice's index.
    Sequential(u32),
    /// Both sides seal a commitment: the root of each side's commitment tree (`NONE` when that
    /// side has nothing left to decide).
    Simultaneous([u32; 2]),
    /// An ongoing game in which nobody has a decision (an engine bug): scored by the evaluator.
    Stuck,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    visits: u32,
    kind: NodeKind,
    /// The position's Zobrist key when it is in the transposition table, else 0.
    key: u64,
}

/// What the search thinks of one decision at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmStats<M> {
    pub mv: M,
    pub visits: u32,
    /// Mean reward for the deciding side, in [-1, 1].
    pub mean: f32,
}

/// One decision of the search's preferred line ([`Searcher::principal_line`]).
#[derive(Clone, Debug, PartialEq)]
pub struct LineStep<M> {
    pub side: Side,
    pub mv: M,
    pub visits: u32,
    /// Mean reward for the deciding side, in [-1, 1].
    pub mean: f32,
}

/// An MCTS player for one game, remembering its tree between decisions.
///
/// Use [`Strategy::decide`] for one call, or [`Searcher::begin`], [`Searcher::think`] (repeatedly,
/// e.g. a few hundred iterations per frame on the web) and [`Searcher::choice`]. Call
/// [`Strategy::observe`] with every decision played in the real game so the next search starts from
/// the matching subtree.
pub struct Searcher<R: Rules, P = UniformPolicy, E = DrawEvaluator> {
    config: MctsConfig,
    policy: P,
    evaluator: E,
    rng: GameRng,
    root_pos: Option<R>,
    side: Side,
    nodes: Vec<Node>,
    choices: Vec<Choice<R::Move>>,
    /// Children of simultaneous nodes: (node, first side's completed commitment, second side's).
    joint: HashMap<(u32, u32, u32), u32>,
    /// Nodes by Zobrist key (transpositions).
    table: HashMap<u64, u32>,
    /// Decisions observed since the tree's root position.
    played: Vec<R::Move>,
    // Scratch space reused by every iteration.
    /// (choice, arm, probability with which the arm was drawn) for each decision of the iteration.
    path: Vec<(u32, usize, f32)>,
    node_path: Vec<u32>,
    moves: Vec<R::Move>,
    commitments: [Vec<R::Move>; 2],
    weights: Vec<f32>,
}

impl<R: Rules> Searcher<R> {
    /// A searcher with uniformly random playouts and draws at the playout cap.
    pub fn new(config: MctsConfig, seed: u64) -> Self {
        Searcher::with_policy(config, UniformPolicy, DrawEvaluator, seed)
    }
}

impl<R: Rules, P: PlayoutPolicy<R>, E: Evaluator<R>> Searcher<R, P, E> {
    pub fn with_policy(config: MctsConfig, policy: P, evaluator: E, seed: u64) -> Self {
        Searcher {
            config,
            policy,
            evaluator,
            rng: seeded(seed),
            root_pos: None,
            side: Side::First,
            nodes: Vec::new(),
            choices: Vec::new(),
            joint: HashMap::new(),
            table: HashMap::new(),
            played: Vec::new(),
            path: Vec::new(),
            node_path: Vec::new(),
            moves: Vec::new(),
            commitments: [Vec::new(), Vec::new()],
            weights: Vec::new(),
        }
    }

    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Nodes in the tree (including those kept from earlier searches).
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// Visits of the root: how much of the current tree's knowledge is about this position.
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |n| n.visits)
    }

    /// Starts deciding for `side` in `pos`: keeps the subtree of the observed decisions when `pos`
    /// is where they lead from the previous root, else starts a fresh tree. Refuses positions where
    /// `side` has nothing to decide or the opponent's sealed choice would be read.
    pub fn begin(&mut self, pos: &R, side: Side) -> Result<(), DecideError> {
        check_may_decide(pos, side, &mut self.moves)?;
        if !self.try_reuse(pos) {
            self.reset(pos.clone());
        }
        self.side = side;
        self.played.clear();
        Ok(())
    }

    /// Runs iterations until the budget is spent, the time limit passes or the stop flag is set.
    /// Can be called again to think more about the same position.
    pub fn think(&mut self, budget: &Budget) -> SearchReport {
        let start = Instant::now();
        let report = |this: &Self, iterations, stopped_by| SearchReport {
            iterations,
            seconds: start.elapsed().as_secs_f64(),
            stopped_by,
            nodes: this.nodes.len(),
        };
        let Some(root_pos) = &self.root_pos else { return report(self, 0, StopReason::Forced) };
        root_pos.legal_moves_for(self.side, &mut self.moves);
        if self.moves.len() <= 1 {
            return report(self, 0, StopReason::Forced);
        }
        let mut done = 0u64;
        let stopped_by = loop {
            if done >= budget.iterations {
                break StopReason::Iterations;
            }
            if budget.stop_requested() {
                break StopReason::StopFlag;
            }
            // Reading the clock every iteration would cost more than a cheap playout.
            if let Some(limit) = budget.time_limit
                && done.is_multiple_of(16)
                && start.elapsed() >= limit
            {
                break StopReason::TimeLimit;
            }
            self.iterate();
            done += 1;
        };
        report(self, done, stopped_by)
    }

    /// The decision for the side given to `begin`: the most-visited one at a sequential root; at a
    /// simultaneous root one drawn from the visit counts (the search's mixed strategy). Without any
    /// search a uniformly random legal decision. `None` only before `begin`.
    pub fn choice(&mut self) -> Option<R::Move> {
        let pos = self.root_pos.as_ref()?;
        if let Some(c) = self.root_choice()
            && self.choices[c].arms.iter().any(|a| a.visits > 0)
        {
            let arms = &self.choices[c].arms;
            let simultaneous = matches!(self.nodes[ROOT as usize].kind, NodeKind::Simultaneous(_));
            let index = if simultaneous { sample_by_visits(arms, &mut self.rng) } else { most_visited(arms) };
            return Some(arms[index].mv.clone());
        }
        pos.legal_moves_for(self.side, &mut self.moves);
        if self.moves.is_empty() {
            return None;
        }
        Some(self.moves.swap_remove(pick_index(&mut self.rng, self.moves.len())))
    }

    /// The root's statistics for the deciding side, most visited first.
    pub fn root_statistics(&self) -> Vec<ArmStats<R::Move>> {
        let Some(c) = self.root_choice() else { return Vec::new() };
        let mut stats: Vec<_> = self.choices[c]
            .arms
            .iter()
            .map(|a| ArmStats { mv: a.mv.clone(), visits: a.visits, mean: mean(a) })
            .collect();
        stats.sort_by_key(|s| std::cmp::Reverse(s.visits));
        stats
    }

    /// The search's preferred line from the root: the most-visited decision at each point while it
    /// has at least `min_visits` visits, at most `max` decisions. At a simultaneous root only the
    /// deciding side's commitment (the other side's is not known to it); the line also stops at the
    /// next simultaneous node, where nobody knows the other side's choice.
    pub fn principal_line(&self, max: usize, min_visits: u32) -> Vec<LineStep<R::Move>> {
        let mut line = Vec::new();
        let Some(root) = self.nodes.first() else { return line };
        let step = |c: u32| {
            let choice = self.choices.get(c as usize).filter(|ch| !ch.arms.is_empty())?;
            let arm = &choice.arms[most_visited(&choice.arms)];
            (arm.visits >= min_visits).then(|| {
                (LineStep { side: choice.side, mv: arm.mv.clone(), visits: arm.visits, mean: mean(arm) }, arm.child)
            })
        };
        if let NodeKind::Simultaneous(roots) = root.kind {
            let mut c = roots[self.side.index()];
            while c != NONE && line.len() < max {
                let Some((s, next)) = step(c) else { break };
                line.push(s);
                c = next;
            }
            return line;
        }
        let mut node = ROOT;
        while line.len() < max {
            let NodeKind::Sequential(c) = self.nodes[node as usize].kind else { break };
            let Some((s, next)) = step(c) else { break };
            line.push(s);
            if next == NONE {
                break;
            }
            node = next;
        }
        line
    }

    /// What the search learnt of `path`, decisions of the deciding side from the root (a turn, or
    /// its commitment at a simultaneous root): one entry per decision the tree holds, in order,
    /// stopping at the first it does not hold.
    pub fn path_statistics(&self, path: &[R::Move]) -> Vec<ArmStats<R::Move>> {
        let mut stats = Vec::new();
        let Some(root) = self.nodes.first() else { return stats };
        let simultaneous = match root.kind {
            NodeKind::Simultaneous(roots) => Some(roots[self.side.index()]),
            _ => None,
        };
        let mut at = simultaneous.unwrap_or(ROOT);
        for m in path {
            let c = match simultaneous {
                Some(_) => at,
                None => match self.nodes[at as usize].kind {
                    NodeKind::Sequential(c) => c,
                    _ => break,
                },
            };
            let Some(choice) = self.choices.get(c as usize).filter(|ch| ch.side == self.side) else { break };
            let Some(arm) = choice.arms.iter().find(|a| &a.mv == m) else { break };
            stats.push(ArmStats { mv: arm.mv.clone(), visits: arm.visits, mean: mean(arm) });
            if arm.child == NONE {
                break;
            }
            at = arm.child;
        }
        stats
    }

    /// At a simultaneous root: the statistics of `side`'s choice reached by `prefix` (decisions
    /// of its commitment from the root), either side's — the search samples both. Empty where the
    /// tree holds no such choice (or has not generated its decisions yet).
    pub fn commitment_arms(&self, side: Side, prefix: &[R::Move]) -> Vec<ArmStats<R::Move>> {
        let Some(NodeKind::Simultaneous(roots)) = self.nodes.first().map(|n| n.kind) else { return Vec::new() };
        let mut c = roots[side.index()];
        for m in prefix {
            let Some(arm) = self.choices.get(c as usize).and_then(|ch| ch.arms.iter().find(|a| &a.mv == m)) else {
                return Vec::new();
            };
            c = arm.child;
        }
        self.choices
            .get(c as usize)
            .map(|ch| ch.arms.iter().map(|a| ArmStats { mv: a.mv.clone(), visits: a.visits, mean: mean(a) }).collect())
            .unwrap_or_default()
    }

    /// The choice at the root that belongs to the deciding side.
    fn root_choice(&self) -> Option<usize> {
        let c = match self.nodes.first()?.kind {
            NodeKind::Sequential(c) => c,
            NodeKind::Simultaneous(roots) => roots[self.side.index()],
            NodeKind::Unexpanded | NodeKind::Stuck => return None,
        };
        (c != NONE && self.choices[c as usize].side == self.side).then_some(c as usize)
    }

    fn reset(&mut self, pos: R) {
        self.nodes.clear();
        self.choices.clear();
        self.joint.clear();
        self.table.clear();
        self.nodes.push(Node { visits: 0, kind: NodeKind::Unexpanded, key: 0 });
        let key = if self.config.transpositions { pos.zobrist() } else { 0 };
        if key != 0 {
            self.nodes[ROOT as usize].key = key;
            self.table.insert(key, ROOT);
        }
        self.root_pos = Some(pos);
    }

    /// One iteration: select down the tree, expand one node, play out, back the value up.
    fn iterate(&mut self) {
        let Some(root_pos) = &self.root_pos else { return };
        let mut pos = root_pos.clone();
        self.path.clear();
        self.node_path.clear();
        let mut node = ROOT;
        let value = loop {
            self.node_path.push(node);
            if let Status::Over(outcome) = pos.status() {
                break discounted(outcome.score_for(Side::First), self.config.length_discount, self.path.len() as u32);
            }
            if (node != ROOT && self.nodes[node as usize].visits == 0) || self.node_path.len() > MAX_DEPTH {
                break self.playout(&mut pos);
            }
            if self.nodes[node as usize].kind == NodeKind::Unexpanded {
                self.expand(node, &pos);
            }
            let next = match self.nodes[node as usize].kind {
                NodeKind::Sequential(c) => match self.select(c) {
                    Some(arm) => {
                        self.path.push((c, arm, 1.0));
                        pos.play_unchecked(&self.choices[c as usize].arms[arm].mv);
                        self.node_child(c, arm, &pos)
                    }
                    None => NONE,
                },
                NodeKind::Simultaneous(roots) => self.joint_step(node, roots, &mut pos),
                NodeKind::Unexpanded | NodeKind::Stuck => NONE,
            };
            if next == NONE {
                // The tree is full (or nobody can decide): estimate from here.
                break self.playout(&mut pos);
            }
            node = next;
        };
        for &(c, arm, probability) in &self.path {
            let choice = &mut self.choices[c as usize];
            choice.visits += 1;
            let reward = if choice.side == Side::First { value } else { -value };
            let in_commitment = choice.in_commitment;
            let arm = &mut choice.arms[arm];
            arm.visits += 1;
            arm.reward += reward;
            if in_commitment {
                arm.gain += (reward + 1.0) * 0.5 / probability;
            }
        }
        for &n in &self.node_path {
            self.nodes[n as usize].visits += 1;
        }
    }

    /// A simultaneous node: each side walks its own commitment tree by its own statistics, from a
    /// position holding only its own earlier decisions, then both commitments are applied to `pos`.
    /// Returns the joint child (`NONE` when the tree is full).
    fn joint_step(&mut self, node: u32, roots: [u32; 2], pos: &mut R) -> u32 {
        let mut leaves = [NONE; 2];
        for side in Side::BOTH {
            let mut own_moves = std::mem::take(&mut self.commitments[side.index()]);
            own_moves.clear();
            let mut c = roots[side.index()];
            while c != NONE {
                if !self.choices[c as usize].expanded {
                    let mut own = pos.clone();
                    for m in &own_moves {
                        own.play_unchecked(m);
                    }
                    self.expand_commitment(c, &own);
                }
                let Some((arm, probability)) = self.select_simultaneous(c) else { break };
                self.path.push((c, arm, probability));
                own_moves.push(self.choices[c as usize].arms[arm].mv.clone());
                c = self.commitment_child(c, arm);
            }
            leaves[side.index()] = c;
            self.commitments[side.index()] = own_moves;
        }
        for side in Side::BOTH {
            for m in &self.commitments[side.index()] {
                pos.play_unchecked(m);
            }
        }
        if let Some(&child) = self.joint.get(&(node, leaves[0], leaves[1])) {
            return child;
        }
        let child = self.node_for(pos);
        if child != NONE {
            self.joint.insert((node, leaves[0], leaves[1]), child);
        }
        child
    }

    fn playout(&mut self, pos: &mut R) -> f32 {
        let Searcher { policy, evaluator, config, rng, moves, path, .. } = self;
        let (value, plies) = playout_value_and_length(pos, policy, evaluator, config.playout_cap, rng, moves);
        discounted(value, config.length_discount, path.len() as u32 + plies)
    }

    /// Generates the choices of a node from its position.
    fn expand(&mut self, node: u32, pos: &R) {
        let mut moves = std::mem::take(&mut self.moves);
        let kind = match pos.to_move() {
            None => NodeKind::Stuck,
            Some(ToMove::One(side)) => {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    NodeKind::Stuck
                } else {
                    NodeKind::Sequential(self.new_choice(side, false, &mut moves))
                }
            }
            Some(ToMove::Both) => {
                let mut roots = [NONE; 2];
                for side in Side::BOTH {
                    pos.legal_moves_for(side, &mut moves);
                    if !moves.is_empty() {
                        roots[side.index()] = self.new_choice(side, true, &mut moves);
                    }
                }
                if roots == [NONE; 2] { NodeKind::Stuck } else { NodeKind::Simultaneous(roots) }
            }
        };
        self.moves = moves;
        self.nodes[node as usize].kind = kind;
    }

    /// Generates a commitment choice from a position holding only its side's earlier decisions.
    fn expand_commitment(&mut self, c: u32, own: &R) {
        let side = self.choices[c as usize].side;
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        // Once the node resolves (or the game ends) the side's commitment is over.
        if own.to_move() == Some(ToMove::Both) {
            own.legal_moves_for(side, &mut moves);
        }
        let arms = self.shuffled_arms(&mut moves);
        let choice = &mut self.choices[c as usize];
        choice.arms = arms;
        choice.expanded = true;
        self.moves = moves;
    }

    fn shuffled_arms(&mut self, moves: &mut Vec<R::Move>) -> Vec<Arm<R::Move>> {
        // Fisher–Yates, so that untried decisions are tried in a seeded random order.
        for i in (1..moves.len()).rev() {
            moves.swap(i, pick_index(&mut self.rng, i + 1));
        }
        moves.drain(..).map(|mv| Arm { mv, child: NONE, visits: 0, reward: 0.0, gain: 0.0 }).collect()
    }

    fn new_choice(&mut self, side: Side, in_commitment: bool, moves: &mut Vec<R::Move>) -> u32 {
        let arms = self.shuffled_arms(moves);
        self.choices.push(Choice { side, in_commitment, expanded: true, arms, untried: 0, visits: 0 });
        (self.choices.len() - 1) as u32
    }

    fn new_node(&mut self) -> Option<u32> {
        if self.nodes.len() >= self.config.max_nodes || self.nodes.len() >= NONE as usize {
            return None;
        }
        self.nodes.push(Node { visits: 0, kind: NodeKind::Unexpanded, key: 0 });
        Some((self.nodes.len() - 1) as u32)
    }

    /// The node for `pos` reached by a new edge: the transposition's node when the table has the
    /// position, else a new node (`NONE` when the tree is full).
    fn node_for(&mut self, pos: &R) -> u32 {
        let key = if self.config.transpositions { pos.zobrist() } else { 0 };
        if key != 0
            && let Some(&node) = self.table.get(&key)
        {
            return node;
        }
        let Some(node) = self.new_node() else { return NONE };
        if key != 0 {
            self.nodes[node as usize].key = key;
            self.table.insert(key, node);
        }
        node
    }

    /// The node a sequential decision leads to (`pos` is the position after it), created if the
    /// tree has room.
    fn node_child(&mut self, c: u32, arm: usize, pos: &R) -> u32 {
        let child = self.choices[c as usize].arms[arm].child;
        if child != NONE {
            return child;
        }
        let child = self.node_for(pos);
        self.choices[c as usize].arms[arm].child = child;
        child
    }

    /// The side's next choice within its commitment (always created: commitments are short).
    fn commitment_child(&mut self, c: u32, arm: usize) -> u32 {
        let child = self.choices[c as usize].arms[arm].child;
        if child != NONE {
            return child;
        }
        let side = self.choices[c as usize].side;
        self.choices.push(Choice {
            side,
            in_commitment: true,
            expanded: false,
            arms: Vec::new(),
            untried: 0,
            visits: 0,
        });
        let child = (self.choices.len() - 1) as u32;
        self.choices[c as usize].arms[arm].child = child;
        child
    }

    /// UCB1: untried decisions first (in their shuffled order), then the best upper bound.
    fn select(&mut self, c: u32) -> Option<usize> {
        let exploration = self.config.exploration;
        let choice = &mut self.choices[c as usize];
        if choice.arms.is_empty() {
            return None;
        }
        if choice.untried < choice.arms.len() {
            choice.untried += 1;
            return Some(choice.untried - 1);
        }
        let ln_total = libm::logf(choice.visits.max(1) as f32);
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, arm) in choice.arms.iter().enumerate() {
            let n = arm.visits.max(1) as f32;
            // Rewards are in [-1, 1]; UCB1's constant is meant for [0, 1].
            let score = (mean(arm) + 1.0) * 0.5 + exploration * (ln_total / n).sqrt();
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        Some(best)
    }

    /// EXP3 at a simultaneous node: an arm drawn from a softmax of the importance-weighted gains
    /// mixed with uniform exploration, and the probability it had. A deterministic rule (UCB1)
    /// here lets the two sides' choices fall into lockstep, so that one side's statistics secretly
    /// depend on the other's picks (e.g. rock-paper-scissors where one side "always wins");
    /// independent random draws keep each side's statistics about the other's mixed strategy.
    fn select_simultaneous(&mut self, c: u32) -> Option<(usize, f32)> {
        let gamma = self.config.simultaneous_exploration.clamp(0.01, 1.0);
        let choice = &self.choices[c as usize];
        let k = choice.arms.len();
        if k == 0 {
            return None;
        }
        let eta = gamma / k as f32;
        let max_gain = choice.arms.iter().map(|a| a.gain).fold(f32::NEG_INFINITY, f32::max);
        let weights = &mut self.weights;
        weights.clear();
        weights.extend(choice.arms.iter().map(|a| libm::expf(eta * (a.gain - max_gain))));
        let total: f32 = weights.iter().sum();
        let probability = |w: f32| (1.0 - gamma) * w / total + gamma / k as f32;
        let mut ticket: f32 = rand::RngExt::random_range(&mut self.rng, 0.0..1.0);
        for (i, &w) in weights.iter().enumerate() {
            let p = probability(w);
            if ticket < p {
                return Some((i, p));
            }
            ticket -= p;
        }
        // Rounding left a sliver: the last arm.
        Some((k - 1, probability(weights[k - 1])))
    }

    /// Whether the tree from the previous search can be kept: the observed decisions lead from its
    /// root to `pos`, and the tree holds that path. Keeps only that subtree.
    fn try_reuse(&mut self, pos: &R) -> bool {
        let Some(old_root) = &self.root_pos else { return false };
        let mut replayed = old_root.clone();
        for m in &self.played {
            replayed.play_unchecked(m);
        }
        if position_key(&replayed) != position_key(pos) {
            return false;
        }
        let Some(new_root) = self.descend() else { return false };
        self.keep_subtree(new_root);
        self.root_pos = Some(pos.clone());
        true
    }

    /// The node reached from the root by the observed decisions, if the tree has it.
    fn descend(&self) -> Option<u32> {
        let mut pos = self.root_pos.clone()?;
        let mut node = ROOT;
        let mut i = 0;
        while i < self.played.len() {
            match self.nodes.get(node as usize)?.kind {
                NodeKind::Sequential(c) => {
                    let m = &self.played[i];
                    let arm = self.choices[c as usize].arms.iter().find(|a| a.mv == *m)?;
                    if arm.child == NONE {
                        return None;
                    }
                    pos.play_unchecked(m);
                    node = arm.child;
                    i += 1;
                }
                NodeKind::Simultaneous(roots) => {
                    // One joint step: follow each side's commitment tree with the observed
                    // decisions of that side until both commitments are complete.
                    let mut cursor = roots;
                    let complete = |c: u32| c == NONE || self.choices[c as usize].is_complete();
                    while !(complete(cursor[0]) && complete(cursor[1])) {
                        let m = self.played.get(i)?;
                        let side = pos.mover(m).index();
                        let c = cursor[side];
                        if c == NONE || !self.choices[c as usize].expanded {
                            return None;
                        }
                        let arm = self.choices[c as usize].arms.iter().find(|a| a.mv == *m)?;
                        if arm.child == NONE {
                            return None;
                        }
                        cursor[side] = arm.child;
                        pos.play_unchecked(m);
                        i += 1;
                    }
                    node = *self.joint.get(&(node, cursor[0], cursor[1]))?;
                }
                NodeKind::Unexpanded | NodeKind::Stuck => return None,
            }
        }
        Some(node)
    }

    /// Rebuilds the tree with only the subtree of `new_root`, which becomes node 0.
    fn keep_subtree(&mut self, new_root: u32) {
        if new_root == ROOT {
            return;
        }
        let old_nodes = std::mem::take(&mut self.nodes);
        let mut old_choices = std::mem::take(&mut self.choices);
        let mut joint_children: HashMap<u32, Vec<(u32, u32, u32)>> = HashMap::new();
        for (&(parent, a, b), &child) in &self.joint {
            joint_children.entry(parent).or_default().push((a, b, child));
        }
        self.joint.clear();
        self.table.clear();

        /// (old index, new index) of a node or choice still to copy.
        enum Work {
            Node(u32, u32),
            Choice(u32, u32),
        }
        let mut node_ids: HashMap<u32, u32> = HashMap::new();
        let mut choice_ids: HashMap<u32, u32> = HashMap::new();
        let mut work = Vec::new();
        let mut nodes = Vec::new();
        let mut choices: Vec<Choice<R::Move>> = Vec::new();
        // New ids are handed out when an old index is first met; the copy happens from `work`.
        let mut map_node = |old: u32, nodes: &mut Vec<Node>, work: &mut Vec<Work>| -> u32 {
            *node_ids.entry(old).or_insert_with(|| {
                nodes.push(Node { visits: 0, kind: NodeKind::Unexpanded, key: 0 });
                let new = (nodes.len() - 1) as u32;
                work.push(Work::Node(old, new));
                new
            })
        };
        let mut map_choice = |old: u32, choices: &mut Vec<Choice<R::Move>>, work: &mut Vec<Work>| -> u32 {
            if old == NONE {
                return NONE;
            }
            *choice_ids.entry(old).or_insert_with(|| {
                choices.push(placeholder_choice());
                let new = (choices.len() - 1) as u32;
                work.push(Work::Choice(old, new));
                new
            })
        };
        map_node(new_root, &mut nodes, &mut work);
        while let Some(item) = work.pop() {
            match item {
                Work::Node(old, new) => {
                    let old_node = old_nodes[old as usize];
                    let kind = match old_node.kind {
                        NodeKind::Sequential(c) => NodeKind::Sequential(map_choice(c, &mut choices, &mut work)),
                        NodeKind::Simultaneous(roots) => {
                            let roots = roots.map(|c| map_choice(c, &mut choices, &mut work));
                            for &(a, b, child) in joint_children.get(&old).into_iter().flatten() {
                                let a = map_choice(a, &mut choices, &mut work);
                                let b = map_choice(b, &mut choices, &mut work);
                                let child = map_node(child, &mut nodes, &mut work);
                                self.joint.insert((new, a, b), child);
                            }
                            NodeKind::Simultaneous(roots)
                        }
                        kind => kind,
                    };
                    nodes[new as usize] = Node { visits: old_node.visits, kind, key: old_node.key };
                    if old_node.key != 0 {
                        self.table.insert(old_node.key, new);
                    }
                }
                Work::Choice(old, new) => {
                    let mut choice = std::mem::replace(&mut old_choices[old as usize], placeholder_choice());
                    for arm in &mut choice.arms {
                        if arm.child != NONE {
                            arm.child = if choice.in_commitment {
                                map_choice(arm.child, &mut choices, &mut work)
                            } else {
                                map_node(arm.child, &mut nodes, &mut work)
                            };
                        }
                    }
                    choices[new as usize] = choice;
                }
            }
        }
        self.nodes = nodes;
        self.choices = choices;
    }
}

impl<R: Rules, P: PlayoutPolicy<R>, E: Evaluator<R>> Strategy<R> for Searcher<R, P, E> {
    fn decide(&mut self, pos: &R, side: Side, budget: &Budget) -> Result<R::Move, DecideError> {
        self.begin(pos, side)?;
        self.think(budget);
        self.choice().ok_or(DecideError::NotYourTurn)
    }

    fn observe(&mut self, m: &R::Move) {
        self.played.push(m.clone());
    }
}

/// `value` shrunk by the length discount for a result `depth` decisions below the root.
fn discounted(value: f32, discount: f32, depth: u32) -> f32 {
    if discount <= 0.0 { value } else { value * libm::powf(1.0 - discount, depth.min(10_000) as f32) }
}

/// Stands in for a choice while the subtree is copied.
fn placeholder_choice<M>() -> Choice<M> {
    Choice { side: Side::First, in_commitment: false, expanded: false, arms: Vec::new(), untried: 0, visits: 0 }
}

fn mean<M>(arm: &Arm<M>) -> f32 {
    if arm.visits == 0 { 0.0 } else { arm.reward / arm.visits as f32 }
}

/// The most-visited arm; ties go to the better mean. `arms` is not empty.
fn most_visited<M>(arms: &[Arm<M>]) -> usize {
    let mut best = 0;
    for (i, arm) in arms.iter().enumerate().skip(1) {
        let b = &arms[best];
        if arm.visits > b.visits || (arm.visits == b.visits && mean(arm) > mean(b)) {
            best = i;
        }
    }
    best
}

/// An arm drawn with probability proportional to its visits, ignoring arms visited less than a
/// tenth as often as the most-visited one (what exploration alone spent on them).
/// The weight in the draw at a simultaneous root of a decision with `visits`, where the most
/// visited has `most`: its visits, or none below a tenth of the most visited (those visits are
/// the search's exploration, not the strategy it found). Root parallelism's summed visits draw
/// the same way ([`super::decide_by_visits`]); drawing from raw visits played Hidden
/// Intention's Hard 4–1–9 against one searcher's purified draw.
pub(crate) fn drawn_weight(visits: u64, most: u64) -> u64 {
    if visits >= (most / 10).max(1) { visits } else { 0 }
}

fn sample_by_visits<M>(arms: &[Arm<M>], rng: &mut GameRng) -> usize {
    let max = arms.iter().map(|a| u64::from(a.visits)).max().unwrap_or(0);
    let weight = |a: &Arm<M>| drawn_weight(u64::from(a.visits), max);
    let total: u64 = arms.iter().map(weight).sum();
    if total == 0 {
        return most_visited(arms);
    }
    let mut ticket = pick_index(rng, total as usize) as u64;
    for (i, arm) in arms.iter().enumerate() {
        let w = weight(arm);
        if ticket < w {
            return i;
        }
        ticket -= w;
    }
    most_visited(arms)
}

/// Identifies a position: the game's Zobrist hash when it has one, else a hash of its full debug
/// text (slower, but every `Rules` type has it and equal positions print equally).
fn position_key<R: Rules>(pos: &R) -> u64 {
    let z = pos.zobrist();
    if z != 0 {
        return z;
    }
    let mut hasher = DefaultHasher::new();
    format!("{pos:?}").hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arm(visits: u32, reward: f32) -> Arm<u8> {
        Arm { mv: 0, child: NONE, visits, reward, gain: 0.0 }
    }

    #[test]
    fn most_visited_breaks_ties_by_mean() {
        assert_eq!(most_visited(&[arm(5, 0.0), arm(9, -9.0), arm(9, 1.0), arm(2, 2.0)]), 2);
        assert_eq!(most_visited(&[arm(0, 0.0)]), 0);
    }

    #[test]
    fn sampling_follows_visits_and_skips_exploration_noise() {
        let arms = [arm(600, 0.0), arm(300, 0.0), arm(100, 0.0), arm(5, 0.0)];
        let mut rng = seeded(1);
        let mut counts = [0u32; 4];
        for _ in 0..10_000 {
            counts[sample_by_visits(&arms, &mut rng)] += 1;
        }
        // 600 : 300 : 100 of 1000; the arm below a tenth of the most-visited one is never drawn.
        assert!((5_600..6_400).contains(&counts[0]), "{counts:?}");
        assert!((2_600..3_400).contains(&counts[1]), "{counts:?}");
        assert!((700..1_300).contains(&counts[2]), "{counts:?}");
        assert_eq!(counts[3], 0);
        assert_eq!(sample_by_visits(&[arm(0, 0.0), arm(0, 0.0)], &mut rng), 0);
    }
}
