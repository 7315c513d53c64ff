"""Cost estimates of claims, checked by ``python -m verify run`` before anything runs (issue 19, item 5).

One central table keyed by claim id (claim modules need no edit).

* :data:`ESTIMATES`: claims whose parameters drive memory or time.  Each :class:`Estimate` gives the
  memory of the dominant parameter-driven arrays in bytes (read off the claim's check: 2^n cube tables,
  N x n matrices, vectorised Monte Carlo draws ...; the interpreter and imported libraries, about
  0.3 GiB, come on top) and a time model: a growth law per parameter, calibrated against the seconds the
  full tier took on the reference machine (report/results.json, 2 CPUs, numba threads 2; mutants
  included).  Both are rough (a factor of 2-3 either way); their purpose is to refuse the values that
  need tens of GiB or days, before they allocate, with the estimate in the message.  A few memory models
  were checked against tracemalloc peaks (tests/test_costs.py, ``test_memory_model_against_tracemalloc``).
* :data:`SAFE`: claims with parameters whose whole declared domain is cheap, with the reason (checked
  mechanically by tests/test_costs.py, or a sentence from reading the check: :data:`SAFE_BY_READING`).
* Every parameter that neither covers (:func:`uncovered`; the claims with one are :func:`_pending`, a
  count that tests/test_costs.py only lets go down) gets the conservative default: a numeric parameter,
  or the largest item of a numeric list parameter, may go up to ``DEFAULT_FACTOR`` times the largest
  value any tier uses; beyond that its cost is unknown and the run is refused.

Measured (tracemalloc peak against the model): seed000.def_2.2 at N = n = 128 63.6 / 63.5 MiB,
thesis_ch5.lemma_B.1 at n = 21 48.2 / 48.0 MiB, thesis_ch8.icl_mc_data_model at n = 10^5, t = 30
111 / 122 MiB, thesis_ch6.assumption_6.2 at n = 20 17.3 / 16.0 MiB, thesis_ch5.warmup_gradient at n = 19
40 / 40 MiB (after raising its model from 7 to 10 arrays); issue 19 part A: seed003.definition_3 at instances = 1000,
d = 128 18.9 / 23.4 MiB, seed001.appendix_h_score at H = 2048 107 / 173 MiB, seed000.lemma_C.1 at the full tier
with mutants 112 / 293 MiB, seed000.theorem_D.6 at perturbations = 20000 29 / 74 MiB.

A refusal exits 2 (``InvalidParameter``) with the estimate and the limit.  Limits: memory
``VERIFY_MEMORY_BUDGET_GIB`` (default: half the physical memory, at least 4 GiB), time ``VERIFY_TIME_BUDGET_HOURS`` (default 24).  ``--force``
runs anyway.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

DEFAULT_FACTOR = 2.0
GIB = 2**30
F8 = 8  # bytes of a float64 / int64
RESULTS_JSON = Path(__file__).resolve().parent.parent / "report" / "results.json"


def memory_budget() -> float:
    """``VERIFY_MEMORY_BUDGET_GIB`` if set, else half this machine's physical memory, at least 4 GiB."""
    if os.environ.get("VERIFY_MEMORY_BUDGET_GIB"):
        return float(os.environ["VERIFY_MEMORY_BUDGET_GIB"]) * GIB
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        total = 0
    return max(4.0 * GIB, 0.5 * total)


def time_budget() -> float:
    return float(os.environ.get("VERIFY_TIME_BUDGET_HOURS", "24")) * 3600.0


@dataclass(frozen=True)
class Cost:
    memory_bytes: float | None = None
    seconds: float | None = None
    note: str = ""


# growth laws of the time in one parameter (ratios of these are what matters)
LAWS: dict[str, Callable[[float], float]] = {
    "const": lambda v: 1.0,
    "lin": lambda v: max(float(v), 1e-300),
    "nlogn": lambda v: max(float(v), 2.0) * math.log2(max(float(v), 2.0)),
    "quad": lambda v: max(float(v), 1e-300) ** 2,
    "cubic": lambda v: max(float(v), 1e-300) ** 3,
    "quartic": lambda v: max(float(v), 1e-300) ** 4,
    "exp2": lambda v: 2.0 ** float(v),  # one 2^v table (or a loop up to v: the last term dominates)
    "nexp2": lambda v: max(float(v), 1.0) * 2.0 ** float(v),  # a Walsh-Hadamard transform of 2^v entries
    "exp4": lambda v: 4.0 ** float(v),
    "exp10": lambda v: 10.0 ** float(v),
    "pow5": lambda v: max(float(v), 1e-300) ** 5,
    "inv2": lambda v: max(float(v), 1e-300) ** -2,  # e.g. a step count T ~ 1/eps^2
}


@dataclass(frozen=True)
class Estimate:
    """memory(params) -> bytes of the dominant parameter-driven arrays; time: parameter -> growth law
    (a key of :data:`LAWS`); free: parameters that drive neither memory nor time beyond their declared
    domain (with the estimate's note saying why).  Parameters in none of these get the default rule."""

    memory: Callable[[Mapping[str, Any]], float]
    note: str
    time: Mapping[str, str] = field(default_factory=dict)
    free: tuple[str, ...] = ()
    memory_params: tuple[str, ...] = ()
    #: work(params) when the parameters do not act separately (e.g. (2^(d+1))^m datasets); replaces ``time``
    work: Callable[[Mapping[str, Any]], float] | None = None
    work_params: tuple[str, ...] = ()

    def covers(self) -> set[str]:
        return set(self.time) | set(self.free) | set(self.memory_params) | set(self.work_params)

    def work_ratio(self, params: Mapping[str, Any], full: Mapping[str, Any]) -> float:
        """Time at ``params`` over time at the full tier's ``full``."""
        ratio = 1.0
        if self.work is not None and all(k in full for k in self.work_params):
            ratio = self.work(params) / max(self.work(dict(params, **{k: full[k] for k in self.work_params})), 1e-300)
        for name, law in self.time.items():
            if name in params and name in full:
                f = LAWS[law]
                ratio *= f(params[name]) / f(full[name])
        return ratio


def _ints(text: str) -> list[int]:
    """The integers of a comma-separated list parameter (``'10,30,100'``; ``'2x3x1'`` items give their product)."""
    out = []
    for item in str(text).split(","):
        item = item.strip()
        if not item:
            continue
        try:
            out.append(math.prod(int(v) for v in item.replace("/", "x").split("x")))
        except ValueError:
            continue
    return out or [1]


def cube(n: int, bytes_per_point: float = 3 * F8) -> float:
    """A few arrays over {+-1}^n (table, transform, scratch): ``bytes_per_point`` * 2^n."""
    return bytes_per_point * 2.0 ** n


def signs(n: int) -> float:
    """sign_vectors(n).astype(int64) (2^n x n) plus three 2^n tables."""
    return F8 * (n + 3) * 2.0 ** n


def E(memory, note, time=None, free=(), memory_params=(), work=None, work_params=()):
    return Estimate(memory=memory, note=note, time=dict(time or {}), free=tuple(free), memory_params=tuple(memory_params),
                    work=work, work_params=tuple(work_params))


def loop(*names: str, per_iteration: float = 256.0) -> Estimate:
    """Parameters that only count iterations of a Python loop in the check (``range(p[name])`` is their
    only use there; tests/test_costs.py re-derives that from the source): time linear in each (nested:
    the product), memory not growing with them (Evidence keeps aggregates; measured peaks 0.07 MiB at
    thesis_ch4.lemma_A.13 instances = 5000 against 0.09 MiB at 500, seed001.lemma_16_softmax_ua flat
    likewise), modelled as ``per_iteration`` bytes each to stay conservative."""
    return E(lambda p: per_iteration * math.prod(p[n] for n in names),
             f"a loop of {' x '.join(names)} iterations, constant memory each", {n: "lin" for n in names})


_CH5_MAJ = "majority table over {+-1}^n, its Walsh-Hadamard transform and scratch (3 x 8 bytes x 2^n)"

#: claim id -> estimate of its cost from its resolved parameters
ESTIMATES: dict[str, Estimate] = {
    # ---- seed000 ---------------------------------------------------------------------------------------
    # sm_experiment: loss[:, idx] for ERM chunks of 500 samples is an (N, 500, n) float64 array, plus the
    # N x n Rademacher matrices; 74.5 GiB was the N x n part alone at N = n = 100000 (issue 19)
    "seed000.def_2.2": E(lambda p: F8 * p["N"] * p["n"] * 502 + F8 * 400 * (p["N"] + p["n"]),
                         "(N, 500, n) float64 ERM chunk plus N x n Rademacher matrices",
                         {"N": "lin", "n": "lin", "rad_samples": "lin", "R": "lin"}),
    "seed000.prop_2.3": E(lambda p: F8 * p["N"] * p["n"] * 502 + F8 * 400 * (p["N"] + p["n"]),
                          "(N, 500, n) float64 ERM chunk plus N x n Rademacher matrices",
                          {"N": "lin", "n": "lin", "rad_samples": "lin", "R": "lin"}),
    # _cor_a1_runs: Z is (n + test) x (dim + 1) float64 (a few copies); the l1 separator is an LP in n rows
    "seed000.cor_A.1": E(lambda p: 4 * F8 * (2 * p["n_max"] + p["test"]) * (p["dim"] + 2),
                         "(n + test) x (dim + 1) float64 design, 4 copies; LP on n rows",
                         {"n_max": "quad", "dim": "lin", "test": "lin"}),
    # ---- seed002 ---------------------------------------------------------------------------------------
    # st.draw(n // N prompts): x (n, d), t (n, q), y (n) for (N, d, q) up to (5, 2, 2) or (4, 3, 1)
    "seed002.definition_2": E(lambda p: 2 * F8 * p["n"] * 6, "prompts x tokens x (d + q + 1) draws, 2 copies",
                              {"n": "lin"}),
    # oracle MC: x (mc, N d) float64, its projection and gathers (4 copies), N <= N_max, d <= 4
    "seed002.theorem_6": E(lambda p: 4 * F8 * p["mc"] * 4 * p["N_max"] + F8 * (4 * p["N_max"]) ** 2 * 4,
                           "(mc, 4 N_max) float64 Monte Carlo draws, 4 copies",
                           {"N_max": "cubic", "mc": "lin"}),
    # standard_normal((samples, N, d)) with N <= 1000, d <= 5, squared copy
    "seed002.lemma_20": E(lambda p: 2 * F8 * p["samples"] * 1000 * 5, "(samples, 1000, 5) float64 normals, 2 copies",
                          {"samples": "lin"}),
    # U (directions, d) and the einsum output (directions, n, N) with N d <= 64
    "seed002.derived_oracle_ffn_risk": E(lambda p: 2 * F8 * p["directions"] * 64, "(directions, n, N) float64 einsum",
                                         {"directions": "lin"}),
    "seed002.proposition_21": E(lambda p: 8 * F8 * p["mc"] * 8, "(mc, N = 8) Monte Carlo decoder draws",
                                {"mc": "lin"}),
    "seed002.proposition_3": E(lambda p: 8 * F8 * p["mc"] * 8, "(mc, N = 8) Monte Carlo decoder draws",
                               {"mc": "lin"}),
    # ---- seed003 ---------------------------------------------------------------------------------------
    # idx (trials, m) with m ~ 40 d samples, the cube gathered at it (trials, m, d), parity tables (trials, 2^d)
    "seed003.definition_4": E(lambda p: F8 * p["trials"] * (40 * p["d"] * (p["d"] + 2) + 2 * 2 ** p["d"]),
                              "(trials, m, d) gathered samples (m ~ 40 d) and (trials, 2^d) parity tables",
                              {"trials": "lin", "d": "nexp2"}),
    "seed003.definition_2": E(lambda p: F8 * p["trials"] * (40 * p["d"] * (p["d"] + 2) + 2 * 2 ** p["d"]),
                              "(trials, m, d) gathered samples (m ~ 40 d) and (trials, 2^d) tables",
                              {"trials": "lin", "d": "nexp2"}),
    "seed003.claim_1": E(lambda p: F8 * p["trials"] * p["r_sim"] * (2 ** p["d_sim"] + p["d_sim"]),
                         "(trials, r, 2^d) simulated Algorithm-2 tables",
                         {"trials": "lin", "r_sim": "lin", "d_sim": "exp2"}),
    # all datasets of m examples out of 2^(d+1) labelled points: (2^(d+1))^m of them for every (d, m)
    "seed003.algorithm_1": E(lambda p: 64.0 * 2**20, "a generator of datasets (no parameter-driven arrays)",
                             work=lambda p: sum((2.0 ** (d + 1)) ** m for d in range(1, p["d_max"] + 1)
                                                for m in range(1, p["m_max"] + 1)), work_params=("d_max", "m_max")),
    "seed003.definition_1": E(lambda p: 64.0 * 2**20, "a generator of datasets (no parameter-driven arrays)",
                              work=lambda p: sum((2.0 ** (d + 1)) ** s for d in range(1, p["d_max"] + 1)
                                                 for m in range(1, p["m_max"] + 1) for s in range(1, m + 1)),
                              work_params=("d_max", "m_max")),
    # _run_trials: (trials, m) packed GF(2) rows (ceil((d+1)/64) words), labels, augmented copy and the
    # elimination's copy at m = d + log2(1/delta), for the largest d of ``dims``; the exact part loops over d
    "seed003.gaussian_elimination.samples": E(
        lambda p: p["trials"] * (max(_ints(p["dims"])) + max(_ints(p["log2_inv_delta"])))
        * (4 * F8 * math.ceil((max(_ints(p["dims"])) + 1) / 64) + 2),
        "(trials, d + log2(1/delta)) packed GF(2) rows, 4 copies (measured 256 MiB against 260 at trials = 20000, d = 128)",
        {"trials": "lin", "exact_d_max": "quad"}, free=("alpha",), memory_params=("dims", "log2_inv_delta")),
    # ---- thesis_ch4 ------------------------------------------------------------------------------------
    # B = integers(0, 2, size=(random_b, T)) for every T up to T_max, then a Python loop over its rows
    "thesis_ch4.lemma_A.19": E(lambda p: F8 * p["random_b"] * p["T_max"], "(random_b, T) int64 random inputs",
                               {"random_b": "lin", "T_max": "quad"}),
    "thesis_ch4.lemma_A.20": E(lambda p: F8 * p["random_b"] * p["T_max"], "(random_b, T) int64 random inputs",
                               {"random_b": "lin", "T_max": "quad"}),
    # parity_class_draws(n = 8): (sets, m) samples and (sets, sigmas) sign draws
    "thesis_ch4.lemma_4.2": E(lambda p: 3 * F8 * p["sets"] * (p["m"] + p["sigmas"] * 2 ** 8 / 8),
                              "(sets, m) samples and (sets, sigmas) Rademacher draws over 2^8 functions",
                              {"sets": "lin", "m": "lin", "sigmas": "lin"}),
    # U, V (pairs, d) with d <= 64 drawn at random, projections and differences: ~6 such arrays
    "thesis_ch4.lemma_A.9": E(lambda p: 6 * F8 * p["pairs"] * 64, "(pairs, d <= 64) float64 pairs and projections, 6 copies",
                              {"pairs": "lin"}),
    # Maurey: choice (draws, k) int64 and atoms (draws, 12) float64, the comparison (draws, k) per coordinate
    "thesis_ch4.lemma_4.10": E(lambda p: F8 * p["maurey_draws"] * (2 * p["maurey_k"] + 3 * 12),
                               "(draws, k) choices and comparisons, (draws, 12) atoms",
                               {"ratio_max": "quad", "maurey_k": "lin", "maurey_draws": "lin"}),
    # ---- thesis_ch5 ------------------------------------------------------------------------------------
    "thesis_ch5.lemma_B.1": E(lambda p: cube(p["n_exhaustive_max"]), _CH5_MAJ,
                              {"n_exhaustive_max": "nexp2", "n_symmetric_max": "quad", "n_top": "quad"}),
    "thesis_ch5.lemma_B.2": E(lambda p: cube(p["n_exhaustive_max"]), _CH5_MAJ,
                              {"n_exhaustive_max": "nexp2", "k_max": "lin", "n_span": "lin", "log10_n_large": "exp10",
                               "search_restarts": "lin"}),
    "thesis_ch5.ltf_majority": E(lambda p: signs(p["n_max"]) + cube(p["n_max"]),
                                 "sign_vectors(n) as int64 (2^n x n) and LTF / majority transforms",
                                 {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.warmup_gradient": E(lambda p: cube(p["n_max"], 10 * F8), "popcounts, sums, h, its transform, chi_S and scratch over 2^n (measured 40 MiB at n = 19)",
                                    {"n_max": "nexp2", "k_max": "lin", "n_scaling_max": "quad"}),
    "thesis_ch5.eq_B.1": E(lambda p: 3 * F8 * 4.0 ** p["n_gram_max"] + cube(p["n_inverse_max"]),
                           "2^n x 2^n Gram matrix (3 copies) and 2^n inverse-transform tables",
                           {"n_gram_max": "exp4", "n_inverse_max": "nexp2"}),
    "thesis_ch5.sq_counting": E(lambda p: cube(p["n_max"], 3 * F8 + 2 * 36), "2^n spectrum as int64 and as Python ints",
                                {"n_max": "nexp2"}),
    "thesis_ch5.def_5.4": E(lambda p: signs(p["n"]), "sign_vectors(n) as int64 and 2^n function tables",
                            {"n": "nexp2", "draws": "lin"}),
    "thesis_ch5.noisy_parity": E(lambda p: 6 * F8 * p["mc_samples"] + signs(p["gap_n"]) + cube(p["n_max"]),
                                 "six length-mc_samples int64 arrays; 2^n x n cube at gap_n",
                                 {"mc_samples": "lin", "gap_n": "nexp2", "n_max": "nexp2"}, free=("delta",)),
    "thesis_ch5.fourier_gaps.ltf_symmetry": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)),
                                              "population gradient and exact transforms over 2^n",
                                              {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.fourier_gaps.sinusoid_symmetry": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)),
                                                   "population gradient and exact transforms over 2^n",
                                                   {"n_max": "nexp2", "draws": "lin"}),
    "thesis_ch5.fourier_gaps.random_ltf": E(lambda p: cube(p["n"], F8 * (p["n"] + 4)), "transforms over 2^n",
                                            {"n": "nexp2", "draws": "lin"}, free=("confidence",)),
    "thesis_ch5.fourier_gaps.sinusoid": E(lambda p: cube(p["n"], F8 * (p["n"] + 4)), "transforms over 2^n",
                                          {"n": "nexp2", "draws": "lin"}, free=("confidence",)),
    "thesis_ch5.disjoint_polynet.population_gradient": E(
        lambda p: cube(max(p["n_max"], p["n_fd_max"]), F8 * (max(p["n_max"], p["n_fd_max"]) + 4)),
        "population gradient over 2^n (n + 4 float64 per point)", {"n_max": "nexp2", "n_fd_max": "nexp2"}),
    "thesis_ch5.lemma_B.9": E(lambda p: cube(p["n_exhaustive_max"], F8 * (p["n_exhaustive_max"] + 4)),
                              "exhaustive cube formulas over 2^n",
                              {"n_exhaustive_max": "nexp2", "m_pm1_max": "quad", "m_gauss_max": "exp2",
                               "gauss_draws": "lin"}, free=("c_max",)),
    "thesis_ch5.lemma_B.3": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)), "hinge gradient over 2^n",
                              {"n_max": "nexp2", "pairs": "lin"}),
    "thesis_ch5.lemma_B.4.claims_1-3": E(lambda p: cube(p["n_max"], F8 * (p["n_max"] + 4)), "hinge gradient over 2^n",
                                         {"n_max": "nexp2", "pairs": "lin", "draws": "lin"}),
    "thesis_ch5.lemma_B.4.claim_4.hoeffding": E(lambda p: cube(p["n_max_enum"], F8 * (p["n_max_enum"] + 4)),
                                                "enumeration over 2^n", {"n_max_enum": "nexp2", "n_big": "lin",
                                                                         "draws": "lin"}),
    # bootstrap: idx (bootstrap, inits) int64 and R[idx] float64
    "thesis_ch5.thm_5.7.full": E(lambda p: 2 * F8 * p["bootstrap"] * p["inits"] + 4 * F8 * max(p["mc_samples"], p["ingredient_draws"]),
                                 "(bootstrap, inits) resampling indices and values; Monte Carlo vectors",
                                 {"inits": "lin", "bootstrap": "lin", "mc_samples": "lin", "ingredient_draws": "lin"}),
    # two-layer SGD trainings: (runs, width, n + 2) parameters and gradients, (boot, runs) bootstrap resamples
    "thesis_ch5.finding_5.1": E(
        lambda p: 3 * F8 * max(p["runs"], p["precision_runs"], p["ablation_runs"]) * p["width"] * (max(_ints(p["ns"])) + 2)
        + 2 * F8 * p["boot"] * max(p["runs"], p["precision_runs"], p["ablation_runs"]),
        "(runs, width, n + 2) float64 parameters and gradients, (boot, runs) bootstrap resamples",
        {"runs": "lin", "steps": "lin", "width": "lin", "batch": "lin", "boot": "lin", "precision_runs": "lin",
         "ablation_runs": "lin", "ablation_steps": "lin"}, free=("lr", "eval_every"), memory_params=("ns",)),
    "thesis_ch5.random_search.width": E(
        lambda p: 3 * F8 * p["runs"] * max(_ints(p["widths"])) * (p["n"] + 2) + 2 * F8 * p["boot"] * p["runs"],
        "(runs, width, n + 2) float64 parameters and gradients, (boot, runs) bootstrap resamples",
        {"n": "lin", "runs": "lin", "steps": "lin", "batch": "lin", "boot": "lin"}, free=("lr", "eval_every"),
        memory_params=("widths",)),
    # exhaustive-population SGD over {+-1}^n, width r, inits independent runs; T ~ 1/eps^2 steps
    "thesis_ch5.thm_5.5": E(lambda p: signs(p["n"]) + 3 * F8 * p["r"] * 2.0 ** p["n"],
                            "sign_vectors(n) and (2^n, r) activations",
                            {"n": "nexp2", "r": "lin", "inits": "lin", "t_fraction": "lin", "eps": "inv2"}),
    # ---- thesis_ch6 ------------------------------------------------------------------------------------
    # popcounts(n) as int64 over 2^n and m sampled indices per resample
    "thesis_ch6.assumption_6.2": E(lambda p: cube(p["n"], 2 * F8), "popcounts(n) int64 over 2^n and sampled parities",
                                   {"n": "exp2", "resamples": "lin"}),
    # targets (trials,) and a Python loop over them, three times
    "thesis_ch6.warmup_sq": E(lambda p: 2 * F8 * p["trials"], "(trials,) int64 targets, a loop over them", {"trials": "lin"}),
    # ---- thesis_ch7 ------------------------------------------------------------------------------------
    # a loop over the moduli q <= p_max, each with q x q tables and q^3 logits (chunked): memory ~ 3 q^3
    # float64 at the largest q, time ~ sum_q q^3 ~ p_max^4 (all (a, b, c, k) up to p_exhaustive: ~ p^5)
    "thesis_ch7.all_frequencies_used": E(lambda p: 3 * F8 * max(p["p_max"], p["p_fft"]) ** 3, "q^3 float64 logits at the largest modulus",
                                         {"p_max": "quartic", "p_fft": "quartic"}),
    "thesis_ch7.cyclic_construction": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                        {"p_max": "quartic"}),
    "thesis_ch7.cyclic_game_all_p": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                      {"p_max": "quartic", "p_exec": "quartic"}),
    "thesis_ch7.width_3p": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                             {"p_max": "quartic"}),
    "thesis_ch7.intro_argmax_identity": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 tables at the largest modulus",
                                          {"p_max": "quartic", "p_exhaustive": "pow5"}),
    "thesis_ch7.theorem_7_7": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                {"p_max": "quartic", "p_opt": "quartic", "restarts": "lin"}),
    "thesis_ch7.single_neuron_optimum_cyclic": E(lambda p: 3 * F8 * p["p_max"] ** 3, "q^3 float64 logits at the largest modulus",
                                                 {"p_max": "quartic", "restarts": "lin"}),
    # ---- thesis_ch8 ------------------------------------------------------------------------------------
    # P (n, k, k), pi (n, k), chains x (n, t) int64, for k up to 5
    "thesis_ch8.icl_mc_data_model": E(lambda p: 2 * F8 * p["n"] * (p["t"] + 2 * 25), "(n, t) int64 chains and (n, 5, 5) transitions",
                                      {"n": "lin", "t": "lin"}),
    "thesis_ch8.ngram_extension": E(lambda p: 4 * F8 * p["n"] * (p["t"] + 8), "(n, t) int64 chains and per-order predictions",
                                    {"n": "lin", "t": "lin"}),
    # P (mc, 2, 2) transition matrices and their stationary laws; chains (chains, t) int64
    "thesis_ch8.proposition_8_2": E(lambda p: 3 * F8 * 6 * p["mc"] + 2 * F8 * p["chains"] * p["t"],
                                    "(mc, 2, 2) transition matrices and (chains, t) int64 chains",
                                    {"chains": "lin", "t": "quad", "mc": "lin"}, free=("c_scan",)),
    # chunks of 20000 chains: memory bounded by the chunk, time linear in n
    "thesis_ch8.strategy_losses": E(lambda p: 4 * F8 * min(p["n"], 20000) * (p["t"] + max(_ints(p["k_list"])) ** 2),
                                    "chunks of 20000 chains of length t", {"n": "lin", "t": "lin"}),
    # P (n, k, k) for k up to max(k_list), its stationary vectors
    "thesis_ch8.unigram_strategy": E(lambda p: 3 * F8 * p["n"] * max(_ints(p["k_list"])) ** 2,
                                     "(n, k, k) transition matrices, 3 copies", {"n": "lin"},
                                     memory_params=("k_list",)),
}

#: reasons a claim's whole declared domain is cheap (tests/test_costs.py checks these two mechanically;
#: any other reason is a sentence from reading the check, listed in SAFE_BY_READING)
WITHIN_TESTED = ("every numeric parameter's declared maximum is at most DEFAULT_FACTOR x the largest value a tier runs, "
                 "and the full tier takes under a second: even 2^(max - full) growth stays under a few minutes")
ALL_VALUES_TESTED = "every parameter is a finite choice (or boolean) and some tier runs every choice"

#: reasons found by reading the claim's check (not mechanically checkable)
SAFE_BY_READING: dict[str, str] = {
    "seed002.corollary_27": "N_max only filters the fixed list N in (16, ..., 8192), all of which the full tier runs",
    "seed002.theorem_7": "N_max only filters the fixed list N in (16, ..., 8192), all of which the full tier runs",
    "seed002.assumption_1": "d_max only spans 25 geometric points of a closed form (gammaln): cost independent of d_max",
    "thesis_ch6.lemma_C.9.chain": "P only scales the nuisance features of psi (a number in the arithmetic of each case): "
                                  "cost independent of P",
    # part A
    "seed001.theorem_6_softmax_icgd": "max_Dw only sets the largest of the ~sqrt(max_Dw) + 3 values D_w fed to a closed-form "
                                      "Fraction comparison (6 per D_w): at most ~600 comparisons over the declared domain",
}

ESTIMATES.update({
    "seed000.arch_4.1": loop("machines"),
    "seed000.def_D.5": loop("maps"),
    "seed001.def_11_softmax_block": loop("instances"),
    "seed001.lemma_16_softmax_ua": loop("samples"),
    "seed001.lemma_5_backprop_ewml": loop("instances"),
    "seed001.problem_2_spec": loop("instances"),
    "seed001.theorem_2_informal": loop("instances"),
    "seed002.figure_1": loop("seeds", "rnn_seeds"),
    "seed002.lemma_40": loop("instances"),
    "seed003.computation_phase": loop("datasets"),
    "seed003.corollary_3": loop("built"),
    "seed003.definition_5": loop("datasets"),
    "seed003.definition_6": loop("datasets", "machines"),
    "seed003.head_spec": loop("grids"),
    "seed003.layer_spec": loop("machines"),
    "seed003.lemma_2.computation": loop("datasets"),
    "seed003.lemma_4": loop("datasets"),
    "seed003.lemma_5": loop("instances"),
    "seed003.lemma_6": loop("domains", "draws"),
    "seed003.observation_1": loop("random_M"),
    "thesis_ch4.def_4.1": loop("instances"),
    "thesis_ch4.def_4.4": loop("instances"),
    "thesis_ch4.lemma_4.7": loop("instances"),
    "thesis_ch4.lemma_A.11": loop("instances"),
    "thesis_ch4.lemma_A.12": loop("instances"),
    "thesis_ch4.lemma_A.13": loop("instances"),
    "thesis_ch4.lemma_A.14": loop("instances", "restarts"),
    "thesis_ch4.lemma_A.15": loop("instances"),
    "thesis_ch4.lemma_A.2": loop("instances"),
    "thesis_ch4.lemma_A.22": loop("functions"),
    "thesis_ch4.lemma_A.23": loop("functions"),
    "thesis_ch4.lemma_A.24": loop("instances"),
    "thesis_ch4.lemma_A.25": loop("instances", "z_draws"),
    "thesis_ch4.lemma_A.8": loop("instances"),
    "thesis_ch4.sec_4.4.2_remarks": loop("instances"),
    "thesis_ch4.thm_4.11": loop("instances"),
    "thesis_ch5.constructions.low_degree": loop("trials"),
    "thesis_ch5.layerwise.downstream_degree": loop("trials"),
    "thesis_ch5.layerwise.gradient_vanishes": loop("trials"),
    "thesis_ch5.lemma_B.1.asymptotic": loop("limit_proofs"),
    "thesis_ch6.lemma_C.1": loop("models"),
    "thesis_ch6.lemma_C.3": loop("neurons"),
    "thesis_ch6.lemma_C.4": loop("neurons"),
    "thesis_ch6.lemma_C.7": loop("pairs"),
    "thesis_ch7.eq_D1_reduction": loop("samples"),
    "thesis_ch7.fourier_identity_D3": loop("samples"),
    "thesis_ch7.homogeneity_normalized_margin": loop("samples"),
    "thesis_ch7.lemma_7_2": loop("random_nets"),
    "thesis_ch7.lemma_7_3": loop("mixtures"),
    "thesis_ch7.lemma_7_5": loop("mixtures"),
    "thesis_ch7.lemma_D13": loop("taus"),
    "thesis_ch7.max_min_reformulation": loop("samples"),
    "thesis_ch7.memorizing_construction": loop("random_tables"),
    "thesis_ch7.parity_single_neuron_expectation": loop("samples"),
    "thesis_ch8.corollary_E_2": loop("points"),
    "thesis_ch8.eq_E13_first_step_gradient": loop("chains"),
    "thesis_ch8.eq_E15_matrix_powers": loop("points"),
    "thesis_ch8.eq_E19_E22_W_entries": loop("points"),
    "thesis_ch8.eq_E26_E29_v_update": loop("points"),
    "thesis_ch8.fact_8_3": loop("sequences"),
    "thesis_ch8.transformer_and_margin_loss": loop("cases"),
})

# ---- issue 19 audit, part A: seed000, seed001, seed003 ----
KIB, MIB = 1024.0, 2.0**20


def _words(d: int) -> int:
    """64-bit words of a packed GF(2) row of d bits."""
    return -(-max(int(d), 1) // 64)


def _floats(text: str) -> list[float]:
    """The numbers of a comma-separated list parameter (``'0.3,0.003'``); unparsable items are skipped."""
    out = []
    for item in str(text).split(","):
        try:
            out.append(float(item))
        except ValueError:
            continue
    return out or [1.0]


def _pairs(text: str) -> list[tuple[int, int]]:
    """The (d, m) items of a ``'5:5,8:12'`` list parameter."""
    out = []
    for item in str(text).split(","):
        try:
            d, m = (int(v) for v in item.split(":"))
        except ValueError:
            continue
        out.append((d, m))
    return out or [(1, 1)]


def _parts(*terms):
    """work(params) of a check made of independent parts: the sum of each part's cost relative to its own value
    at the full tier (``terms``: (function of the params, its value at the full tier)).  A part that has a zero
    count in one parameter then no longer zeroes the others, as a product of laws would; the ratio assumes the
    parts shared the full tier's time evenly (at worst an underestimate by the number of parts)."""
    return lambda p: sum(f(p) / full for f, full in terms)


def _tm_row(T: int) -> float:
    """One cached Appendix-C run (seed000 turing.run_all) of a machine drawn with horizon up to T (T / 2 on average):
    keep_layers stores up to 3 D-vectors per layer and step (numpy headers included), gaps 2 tuples per layer and
    step; the compiled weights as kernels.tm_transformer.compile_transformer bounds them (w + 4 layers of 6 D x D
    matrices); D = |Z| + 4|A| + 5 w + 5 <= 27 + 5 w for |Z| <= 6, |A| <= 4, w = bits of T."""
    w = max(int(T), 1).bit_length()
    D, L = 27 + 5 * w, w + 4
    return T / 2 * L * (24 * D + 900) + L * 48 * D * D + 40 * T


def _tm(kwargs_sets: int) -> Estimate:
    """seed000.turing claims: run_all caches (machines + 4) compiled runs per distinct compiler kwargs (the printed
    statement's and its mutants'), never freed within the process; each run is T decoder steps over w + 4
    layers attending over up to T cached keys (T^2 (w+4) D^2 work; i_prime is a T^2 Python scan)."""
    def work(p):
        w = max(int(p["T_max"]), 1).bit_length()
        return (p["machines"] + 4) * p["T_max"] * (p["T_max"] + p["m_max"]) * (w + 4) * (27 + 5 * w) ** 2
    return E(lambda p: kwargs_sets * (p["machines"] + 4) * (_tm_row(p["T_max"]) + 8 * p["m_max"] * (27 + 5 * p["T_max"].bit_length())),
             f"{kwargs_sets} cached sets (printed and mutant compiler kwargs) of (machines + 4) runs, each T_max steps x "
             "(w + 4) layers of kept D-vectors plus the compiled D x D weights (tracemalloc: 112 MiB against 293 at the "
             "full tier, 29 against 44 at machines = 4, T_max = 64, mutants included)",
             work=work, work_params=("machines", "T_max", "m_max"))


#: memory per interpolation interval H of one executed ICGD block (kernels.gd_transformer: (pairs x H) ReLU
#: heads of q x D query/key matrices and their (T x T) scores) for the small instances of seed001 (N <= 3, K <= 3,
#: n <= 8): measured 29 KiB (lemma_6_s_error, H = 1024) and 52 KiB (appendix_h_score, n = 16, H = 2048)
_ICGD_PER_H = 64 * KIB
_ICGD_NOTE = "(pairs x H) ReLU attention heads of one ICGD block, 64 KiB per interval (measured 29-52 KiB)"


def _icgd_grid(fixed: int) -> Estimate:
    """seed001 construction claims over an ``H_grid``: ``fixed`` fixed cases plus ``instances`` random ones, each
    run at every H of the grid (one block's heads alive at a time)."""
    return E(lambda p: _ICGD_PER_H * max(_ints(p["H_grid"])), _ICGD_NOTE + ", at the largest H of H_grid",
             work=lambda p: (p["instances"] + fixed) * sum(_ints(p["H_grid"])), work_params=("H_grid", "instances"))


def _eps_search_cost(eps: float) -> float:
    """_search_H doubles H from 4 until the corrected bound (~ (R/H)^2) is <= eps, up to 4096: cost ~ 2 H_needed,
    H_needed ~ 1/sqrt(eps) (the constant taken small, so that the cap is reached late: conservative ratios)."""
    return min(8192.0, 4.0 + 2.0 / math.sqrt(max(abs(eps), 1e-300)))


ESTIMATES.update({
    # ---- seed000: toy margins (sm_approximation/toy.py) ----
    # min_flip_radius over d + 4 starts x 7 d parameters (the round-parameter mutant), a Python loop over d layers
    # per margin evaluation, for d = 1, 2, 4, ..., d_max; exact corners only up to d = 8
    "seed000.claim_3.5": E(lambda p: 12 * F8 * (p["d_max"] + 4) * 7 * p["d_max"] + MIB,
                           "(d + 4, 7 d) attack buffers (6 copies) and the reverse-mode tape over d layers",
                           {"d_max": "cubic"}),
    "seed000.toy_product_margin": E(lambda p: 20 * 2 * F8 * p["d_max"] + MIB,
                                    "(2, d) attack buffers and cumulative products", {"d_max": "quad"}),
    # ---- seed000: the Appendix-C transformer (sm_approximation/turing.py) ----
    "seed000.claim_C.4": _tm(2), "seed000.claim_C.5": _tm(2), "seed000.claim_C.6": _tm(2),
    "seed000.lemma_C.1": _tm(2), "seed000.lemma_C.2": _tm(2), "seed000.lemma_C.3": _tm(4),
    "seed000.lemma_C.7": _tm(2), "seed000.lemma_C.8": _tm(2), "seed000.proof_4.1_assembly": _tm(2),
    "seed000.setup_C.1": _tm(3), "seed000.theorem_4.1": _tm(3),
    # ---- seed000: circuits (sm_approximation/circuits.py, bounds.py, margin_d6.py) ----
    # random_circuits(count, fixed small m, q, r) builds the list of circuits, then one loop over it (exact
    # Fraction nets of at most a few hundred entries each)
    "seed000.classes_G_F": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 6, q <= 8, r <= 6)",
                             {"circuits": "lin"}),
    "seed000.cond_D.3_D.4": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 4, q <= 5, r <= 5)",
                              {"circuits": "lin"}),
    "seed000.def_2.1": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 5, q <= 5, r <= 4)",
                         {"circuits": "lin"}),
    "seed000.lemma_2.4": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits (m <= 4, q <= 5, r <= 4)",
                           {"circuits": "lin"}),
    # a Python loop of `samples` single round blocks, then the circuit loop
    "seed000.def_D.1": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits; the samples loop keeps nothing",
                         work=_parts((lambda p: p["samples"], 1000), (lambda p: p["circuits"], 30)),
                         work_params=("samples", "circuits")),
    # _nice_samples: circuits x blocks x samples perturbations; _adversarial_nice: restarts of a fixed search
    "seed000.def_D.2": E(lambda p: 16 * KIB * p["circuits"], "the list of small random circuits and one row per block",
                         work=_parts((lambda p: p["circuits"] * p["samples"], 20 * 150), (lambda p: p["restarts"], 8)),
                         work_params=("circuits", "samples", "restarts")),
    # _instances keeps (circuit, exact net, X, constants) for 2 ID chains + circuits random ones (m <= 3, q <= 5, r <= 3)
    "seed000.lemma_D.9": E(lambda p: 64 * KIB * (p["circuits"] + 2), "(circuits + 2) compiled exact nets and their constants",
                           work=lambda p: p["circuits"] + 2, work_params=("circuits",)),
    "seed000.lemma_D.7": E(lambda p: 64 * KIB * (p["circuits"] + 2), "(circuits + 2) compiled exact nets; one perturbation at a time",
                           work=lambda p: (p["circuits"] + 2) * p["perturbations"], work_params=("circuits", "perturbations")),
    "seed000.lemma_D.8": E(lambda p: 64 * KIB * (p["circuits"] + 2), "(circuits + 2) compiled exact nets; one perturbation at a time",
                           work=lambda p: (p["circuits"] + 2) * p["perturbations"], work_params=("circuits", "perturbations")),
    # D (perturbations, p <= 400 parameters) float64 directions, its sum with theta and batched_forward's activations
    "seed000.theorem_D.6": E(lambda p: 64 * KIB * (p["circuits"] + 2) + 2 * F8 * 240 * p["perturbations"],
                             "(perturbations, p <= 240) float64 directions, 2 copies (measured 29 MiB against 74 at 20000); (circuits + 2) compiled nets",
                             work=lambda p: (p["circuits"] + 2) * (p["perturbations"] + 1000),
                             work_params=("circuits", "perturbations")),
    # th, xt, th2, al, rho: (cases, dim + 1) float64; a Python loop of two attacks per case
    "seed000.eq_2.1": E(lambda p: 6 * F8 * p["cases"] * (p["dim"] + 2), "(cases, dim + 1) float64 parameters and inputs, 6 copies",
                        {"cases": "lin", "dim": "lin"}),
    # 3 grid + 1 Fractions, four times
    "seed000.eq_2.2": E(lambda p: 3 * 200.0 * p["grid"], "3 grid + 1 Fractions", {"grid": "lin"}),
    # zs: 3 grid + 1 Fractions through an exact (object) round block, a few Fractions per row
    "seed000.prop_3.4": E(lambda p: 3 * 800.0 * p["grid"], "(3 grid + 1) rows of Fractions through an exact round block",
                          {"grid": "lin"}),
    # per circuit (m <= m_max, q <= q_max, widths <= r_max): exact (object) activations of every layer on {0,1}^n_in
    "seed000.lemma_B.1": E(lambda p: 100.0 * 2.0 ** max(p["m_max"], p["r_max"]) * (4 * p["r_max"] + p["m_max"] + 4)
                           + 200.0 * p["circuits"] * p["q_max"] * p["r_max"],
                           "exact (object) layer activations over {0,1}^max(m, r); the list of circuits",
                           {"circuits": "lin", "m_max": "exp2", "q_max": "lin", "r_max": "quad"}),
    # depth_sweep: min_flip_radius over 8 inputs x restarts rows of p ~ 3 q r^2 parameters (6 buffers)
    "seed000.lemma_3.3": E(lambda p: 6 * F8 * 8 * p["restarts"] * 3 * p["q_max"] * (p["random_r"] + 1) ** 2 + MIB,
                           "(8 restarts, p ~ 3 q (r + 1)^2) attack buffers, 6 copies (p measured 21k-35k at q = 129-200, r = 8)",
                           {"q_max": "quad", "random_r": "quad", "restarts": "lin", "steps": "lin"}),
    # width-2 circuits of depth q = 2, 3, 5, 9, ..., q_max: exact nets of ~ 4 q small layers
    "seed000.text_norm_vc": E(lambda p: 2e4 * p["q_max"], "exact nets of depth ~ 2 q (small layers)", {"q_max": "quad"}),
    # circuits (fixed sizes), ID chains up to q_max, fan-out circuits up to width r_max (r x r exact matrices)
    "seed000.theorem_3.1": E(lambda p: 16 * KIB * p["circuits"] + 2e4 * p["q_max"] + 1000.0 * p["r_max"] ** 2,
                             "exact (Fraction) r x r fan-out layers, ID chains of depth q, the list of circuits",
                             {"circuits": "lin", "q_max": "quad", "r_max": "cubic"}),
    # ---- seed001 (icl_deep_gd) ----
    "seed001.appendix_g_experiments": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE, {"prompts": "lin", "blocks": "lin", "H": "lin"}),
    # one block on a prompt of n examples: heads ~ H, scores (heads, n + 1, n + 1)
    "seed001.appendix_h_score": E(lambda p: p["H"] * (30 * KIB + 200.0 * (p["n"] + 1) ** 2),
                                  "(pairs x H) ReLU heads and their (n + 1)^2 scores (measured 107 MiB at n = 16, H = 2048)",
                                  {"n": "quad", "H": "lin"}),
    "seed001.corollary_1_1_trajectory": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE, {"blocks": "lin", "H": "lin"}),
    "seed001.lemma_6_s_error": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE + " (measured 30 MiB at H = 1024)",
                                 work=lambda p: (p["instances"] + 1) * p["H"], work_params=("instances", "H")),
    "seed001.problem_2_spec": E(lambda p: _ICGD_PER_H * p["H"], _ICGD_NOTE,
                                {"blocks": "lin", "instances": "lin", "H": "lin"}),
    "seed001.lemma_2_forward": _icgd_grid(3),
    "seed001.lemma_3_derivative": _icgd_grid(3),
    "seed001.lemma_4_loss_mlp": _icgd_grid(3),
    "seed001.theorem_1_construction": _icgd_grid(3),
    # per (instance, eps): a search over H = 4, 8, ..., at most 4096 (its cap), one block alive at a time
    "seed001.theorem_2_informal": E(lambda p: _ICGD_PER_H * 4096, _ICGD_NOTE + ", H at most 4096 (the search's cap)",
                                    work=lambda p: p["instances"] * sum(_eps_search_cost(e) for e in _floats(p["eps_grid"])),
                                    work_params=("eps_grid", "instances")),
    # _matrix_vs_token_form: a loop over instances of fixed small sizes
    "seed001.def_6_ewml": E(lambda p: MIB, "one instance of fixed small size at a time", {"instances": "lin"}),
    "seed001.def_7_relu_attention": E(lambda p: MIB, "one instance of fixed small size at a time", {"instances": "lin"}),
    # 1-D trajectories of `steps` steps; `functions` D-dimensional trajectories of L steps (D small)
    "seed001.lemma_14_inexact_pgd": E(lambda p: 1 * KIB * (p["L"] + p["steps"]), "trajectories of L and steps points (small D)",
                                      work=_parts((lambda p: p["steps"], 50), (lambda p: (p["functions"] + 1) * p["L"], 13 * 200)),
                                      work_params=("steps", "L", "functions")),
    # networks with N <= 8 layers of width <= 6 (counts), sympy / finite differences on N <= max_N, K, d <= 3
    "seed001.lemma_15_dims": E(lambda p: 16 * MIB, "small networks only (N <= 8, widths <= 6); sympy expressions",
                               {"max_N": "quad", "max_width": "cubic", "exact_instances": "lin", "float_instances": "lin"}),
    "seed001.lemma_1_gradient": E(lambda p: 16 * MIB, "small networks only (N <= 8, widths <= 3); sympy expressions",
                                  {"max_N": "quad", "exact_instances": "lin", "float_instances": "lin"}),
    # pl_interpolant(H) evaluated on H * grid_per_interval points: a (points, H) pre-activation matrix, 2 copies
    "seed001.lemma_7_relu_sums": E(lambda p: 2 * F8 * max(_ints(p["H_grid"])) ** 2 * p["grid_per_interval"] + MIB,
                                   "(H grid_per_interval, H) float64 ReLU pre-activations, 2 copies",
                                   work=_parts((lambda p: sum(h * h for h in _ints(p["H_grid"])) * p["grid_per_interval"],
                                                (16 + 256 + 4096 + 65536 + 262144) * 32),
                                               (lambda p: (p["restarts"] + 1) * p["maxiter"], 13 * 60)),
                                   work_params=("H_grid", "grid_per_interval", "restarts", "maxiter")),
    # ---- seed003 (rcnn) ----
    # closed-form big-integer comparisons over k x d x (log2 1/eps, log2 1/delta) x 3 sample sizes
    "seed003.claim_2": E(lambda p: 2 * KIB * len(_ints(p["d_list"])) + MIB, "the d_list values; comparisons of big integers",
                         work=lambda p: p["k_max"] ** 2 * p["log2_inv_max"] ** 2
                         * sum(1 + math.log2(max(d, 2)) / 64 for d in _ints(p["d_list"])),
                         work_params=("k_max", "d_list", "log2_inv_max")),
    # k x dm^2 x log2_inv^2 x (4 + random_M) cases of exact integer arithmetic (integers of ~ 3k log2(4 dm) bits)
    "seed003.observation_1": E(lambda p: MIB, "one case at a time (Evidence keeps aggregates)",
                               work=lambda p: p["k_max"] ** 2 * p["dm_max"] ** 2 * (1 + math.log2(p["dm_max"]))
                               * p["log2_inv_max"] ** 2 * (4 + p["random_M"]),
                               work_params=("k_max", "dm_max", "log2_inv_max", "random_M")),
    # Ms: 3 s_max restart counts s^(c2 s^2) ln(2/delta) (c2 s^2 log2 s bits each) per constant; simulation in
    # chunks of 1000 x M <= 48 uniforms
    "seed003.corollary_2": E(lambda p: 3 * max(_ints(p["c2_list"])) * p["s_max"] ** 3 * math.log2(max(p["s_max"], 2)) / 8
                             + 1000 * 48 * 9.0,
                             "3 s_max big integers s^(c2 s^2) of up to c2 s^2 log2 s bits; (1000, M <= 48) uniforms",
                             work=_parts((lambda p: sum(_ints(p["c2_list"])) * p["s_max"] ** 4 * max(p["c_max"], 1), 6 * 40**4 * 32),
                                         (lambda p: p["trials"], 40000)),
                             work_params=("s_max", "c_max", "c2_list", "trials")),
    # per n <= n_max: weight-value sets of O(n) Fractions; `built` interpolants of <= 6 points
    "seed003.corollary_3": E(lambda p: 20 * KIB * p["n_max"], "weight-value sets of O(n_max) Fractions",
                             work=_parts((lambda p: p["n_max"] ** 2, 300**2), (lambda p: p["built"], 20)),
                             work_params=("n_max", "built")),
    # per s <= s_max: value closure (~ 24 s values), reachable_values (runs spec runs of depth ~ 4 s); all-codes
    # domain 3^(N + 1) ~ s^1.6 Fractions for s <= s_built
    "seed003.corollary_3.U_s": E(lambda p: 2000.0 * 3 ** ((p["s_built"] - 1).bit_length() + 5) + 100 * KIB * p["s_max"],
                                 "3^(N + 1) Fractions of the all-codes domain at s_built; value closures of O(s) values",
                                 work=_parts((lambda p: p["s_max"] ** 3, 64**3), (lambda p: p["runs"] * p["s_max"] ** 3, 4 * 64**3),
                                             (lambda p: p["s_built"] ** 3, 4**3)),
                                 work_params=("s_max", "runs", "s_built")),
    # 3^(N + 1) codes as Fractions (a dict of tuples) for N <= N_exhaustive; reachable values for s <= s_max
    "seed003.data_representation": E(lambda p: 400.0 * 3 ** (p["N_exhaustive"] + 1) + 100 * KIB * p["s_max"],
                                     "3^(N + 1) codes (Fraction -> digit tuple dict)",
                                     work=_parts((lambda p: 3.0 ** p["N_exhaustive"], 3.0**8),
                                                 (lambda p: p["runs"] * p["s_max"] ** 3, 6 * 8**3)),
                                     work_params=("runs", "s_max", "N_exhaustive")),
    # per d of d_list and m in {d, d + 10, 2d}: (instances, m) packed GF(2) rows, the elimination's copy
    "seed003.definition_3": E(lambda p: 4 * F8 * p["instances"] * 2 * max(_ints(p["d_list"])) * _words(max(_ints(p["d_list"])) + 1),
                              "(instances, 2 d) packed GF(2) rows at the largest d, 4 copies",
                              work=lambda p: p["instances"] * sum(4 * d * d * _words(d + 1) for d in _ints(p["d_list"])),
                              work_params=("d_list", "instances")),
    # Algorithm 1 run exactly on m <= m_max examples in dimension d <= d_max for every (m, d), datasets times
    "seed003.definition_5": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                              {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    "seed003.lemma_1": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                         {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    "seed003.lemma_2": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                         {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    "seed003.lemma_4": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one (m + 1) x (d + 1 + l) exact run at a time",
                         {"datasets": "lin", "m_max": "quartic", "d_max": "cubic"}),
    # end to end per (m, d, dataset): Algorithm 1 at depth L ~ t = 21 + 9(m-1) + 5(d-1) + 2(m-1)(d-1), then 2^d
    # roll-outs (measured: 0.4-3 s per (m, d) at m <= 5, d <= 3, growing ~ m^2 d)
    "seed003.computation_phase": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1),
                                   "the kept roll-out grids of one run, L x (m + 1) x (d + 1 + L)",
                                   {"datasets": "lin", "m_max": "cubic", "d_max": "nexp2"}),
    "seed003.lemma_2.computation": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1),
                                     "the kept roll-out grids of one run, L x (m + 1) x (d + 1 + L)",
                                     {"datasets": "lin", "m_max": "cubic", "d_max": "nexp2"}),
    # datasets x (m, d) exact runs, machines fixed-size simulations, boundary flags: 2^d simulations per (m, d)
    "seed003.definition_6": E(lambda p: MIB * (p["m_max"] + 1) * (p["d_max"] + 1), "one exact run or simulation at a time",
                              work=_parts((lambda p: p["datasets"] * p["m_max"] ** 4 * p["d_max"] ** 3, 6 * 4**4 * 3**3),
                                          (lambda p: p["machines"], 200),
                                          (lambda p: p["m_max"] ** 3 * p["d_max"] * 2 ** p["d_max"], 4**3 * 3 * 8)),
                              work_params=("datasets", "machines", "m_max", "d_max")),
    # for ~ 20 values s <= s_max: 2 x 3^(N - 3) codes through f (N ~ log2 s digits: ~ s^1.6); grids loop
    "seed003.head_spec": E(lambda p: MIB, "a few Fractions per s (40 kept points)", {"s_max": "quad", "grids": "lin"}),
    # per machine (and per oracle machine, <= 6 reference conv layers): an l-layer comparison on an
    # (m + 1) x (d + 1 + l) grid, s-state case lists
    "seed003.layer_spec": E(lambda p: 2 * F8 * p["l_max"] * (p["m_max"] + 1) * (p["d_max"] + 1 + p["l_max"]) + MIB,
                            "per-layer records of one (m + 1) x (d + 1 + l) grid run",
                            work=lambda p: (p["machines"] + p["oracle"]) * p["l_max"] ** 2 * (p["m_max"] + 1) * (p["d_max"] + 1)
                            * p["s_max"], work_params=("machines", "oracle", "s_max", "m_max", "d_max", "l_max")),
    # patterns: up to `patterns` sign tuples of (tau - 1)(d + 1) <= m (d + 1) entries; the full Jacobian is
    # (cells x cells) for grids of at most jacobian_cells cells
    "seed003.lemma_3": E(lambda p: 400.0 * p["patterns"] + 2 * F8 * p["jacobian_cells"] ** 2 + MIB,
                         "the list of sign patterns; a (cells, cells) float64 Jacobian",
                         work=_parts((lambda p: p["patterns"] * p["m_max"] ** 4 * p["d_max"] ** 3, 128 * 5**4 * 4**3),
                                     (lambda p: p["jacobian_cells"] ** 2 * p["m_max"] * p["d_max"], 60**2 * 5 * 4)),
                         work_params=("m_max", "d_max", "patterns", "jacobian_cells")),
    # instances exact interpolants of n <= n_max points in d_in -> d_out; one of `patches` 3x3 patches (d_in = 9)
    "seed003.lemma_5": E(lambda p: 20 * KIB * (p["n_max"] * p["d_in_max"] * p["d_out_max"] + 9 * p["patches"]) + MIB,
                         "exact (Fraction) interpolant of the largest instance: O(n d_in d_out) weights",
                         work=_parts((lambda p: p["instances"] * p["n_max"] ** 3 * p["d_in_max"] ** 2 * p["d_out_max"],
                                      80 * 14**3 * 4**2 * 3),
                                     (lambda p: p["patches"] ** 3, 24**3)),
                         work_params=("instances", "n_max", "d_in_max", "d_out_max", "patches")),
    "seed003.lemma_6": E(lambda p: 20 * KIB * 6 * p["n_max"] + MIB, "exact interpolant of n_max points (d_in <= 3)",
                         {"domains": "lin", "draws": "lin", "n_max": "cubic"}),
    # closed forms for s = 1 .. s_max, one at a time
    "seed003.parameter_count": E(lambda p: MIB, "closed forms per s, nothing kept", {"s_max": "lin"}),
    # family: one (d + k) x words matrix per d; random: (T, d + k) packed rows with T = instances (or
    # instances * 256 / d above d = 256), elimination cost rows x pivots x words
    "seed003.gaussian_elimination.runtime": E(
        lambda p: max(4 * F8 * (max(2, p["instances"] * 256 // d) if d > 256 else p["instances"]) * (d + p["extra"]) * _words(d + 1)
                      for d in _ints(p["random_dims"]) + [1])
        + max(4 * F8 * (d + p["extra"]) * _words(d + 1) for d in _ints(p["family_dims"])),
        "(instances, d + extra) packed GF(2) rows at the worst d, 4 copies",
        work=lambda p: sum((d + p["extra"]) * d * _words(d + 1) for d in _ints(p["family_dims"]))
        + sum((max(2, p["instances"] * 256 // d) if d > 256 else p["instances"]) * (d + p["extra"]) * d * _words(d + 1)
              for d in _ints(p["random_dims"])),
        work_params=("family_dims", "random_dims", "instances", "extra")),
    # (replaces the entry above: rank_cases adds (trials, m) packed rows per (d, m) and an exact rank distribution)
    "seed003.gaussian_elimination.samples": E(
        lambda p: p["trials"] * max([max(_ints(p["dims"])) + max(_ints(p["log2_inv_delta"]))] + [m for _, m in _pairs(p["rank_cases"])])
        * (4 * F8 * _words(max([max(_ints(p["dims"]))] + [d for d, _ in _pairs(p["rank_cases"])]) + 1) + 2),
        "(trials, m) packed GF(2) rows, 4 copies, at the largest d + log2(1/delta) or rank case (measured 256 MiB against "
        "260 at trials = 20000, d = 128)",
        {"trials": "lin", "exact_d_max": "quad"}, free=("alpha",),
        work=lambda p: sum((d + j) * d * _words(d + 1) for d in _ints(p["dims"]) for j in _ints(p["log2_inv_delta"]))
        + sum(m * d * _words(d + 1) + d * m for d, m in _pairs(p["rank_cases"])),
        work_params=("dims", "log2_inv_delta", "rank_cases")),
})

#: claims with parameters whose whole declared domain is cheap (the reason says why); no default rule
SAFE: dict[str, str] = {
    **SAFE_BY_READING,
    "seed001.def_1_param_count": WITHIN_TESTED,
    "seed001.lemma_17_contextual_mapping": WITHIN_TESTED,
    "seed003.theorem_1": WITHIN_TESTED,
    "thesis_ch4.lemma_A.10": WITHIN_TESTED,
    "thesis_ch4.prop_4.8": WITHIN_TESTED,
    "thesis_ch5.constructions.infinite_zigzag": WITHIN_TESTED,
    "thesis_ch5.constructions.k_zigzag": WITHIN_TESTED,
    "thesis_ch5.constructions.mlp_power_width": WITHIN_TESTED,
    "thesis_ch5.constructions.oscillating_polynomial": WITHIN_TESTED,
    "thesis_ch5.constructions.sinusoid": WITHIN_TESTED,
    "thesis_ch5.random_search.closed_form": WITHIN_TESTED,
    "thesis_ch6.lemma_C.15": WITHIN_TESTED,
    "thesis_ch6.lemma_C.6.readout": WITHIN_TESTED,
    "thesis_ch6.theorem_C.11.width": WITHIN_TESTED,
    "thesis_ch6.theorem_C.16.one_step": WITHIN_TESTED,
    "thesis_ch7.all_irreps_used": ALL_VALUES_TESTED,
    "thesis_ch7.destructive_interference": WITHIN_TESTED,
    "thesis_ch7.general_group_theorem": WITHIN_TESTED,
    "thesis_ch7.group_game": WITHIN_TESTED,
    "thesis_ch7.lemma_D14": ALL_VALUES_TESTED,
    "thesis_ch7.lemma_D15": ALL_VALUES_TESTED,
    "thesis_ch7.lemma_D16": ALL_VALUES_TESTED,
    "thesis_ch7.parity_construction": WITHIN_TESTED,
    "thesis_ch7.parity_width_necessary": WITHIN_TESTED,
    "thesis_ch7.representation_background": ALL_VALUES_TESTED,
    "thesis_ch7.theorem_7_1_training": ALL_VALUES_TESTED,
    "thesis_ch8.eq_E6_constant_init": WITHIN_TESTED,
    "thesis_ch8.sec_8_3_2_corollaries": WITHIN_TESTED,
}


def uncovered(claim) -> list[str]:
    """The parameters of ``claim`` that neither an estimate nor a SAFE entry covers (the default rule's)."""
    if claim.id in SAFE:
        return []
    covered = ESTIMATES[claim.id].covers() if claim.id in ESTIMATES else set()
    return [p.name for p in claim.params if p.name not in covered and p.type is not bool and p.choices is None]


def _pending() -> frozenset[str]:
    from .registry import all_claims

    return frozenset(c.id for c in all_claims() if c.params and uncovered(c))


@lru_cache(maxsize=1)
def _full_seconds() -> dict[str, tuple[float, dict]]:
    """claim id -> (seconds, params) of the recorded full-tier run (empty if there is none)."""
    try:
        data = json.loads(RESULTS_JSON.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if data.get("environment", {}).get("tier") not in ("full", "gpu"):
        return {}
    return {r["id"]: (float(r["seconds"]), dict(r.get("params") or {}))
            for r in data.get("results", []) if "id" in r and isinstance(r.get("seconds"), (int, float))}


def estimate(claim_id: str, params: Mapping[str, Any]) -> Cost | None:
    """The cost of running ``claim_id`` at ``params`` (None if it declares no estimate)."""
    est = ESTIMATES.get(claim_id)
    if est is None:
        return None
    seconds = None
    rec = _full_seconds().get(claim_id)
    if rec is not None:
        t_full, full = rec
        seconds = max(t_full, 0.01) * est.work_ratio(params, full)
    return Cost(memory_bytes=float(est.memory(params)), seconds=seconds, note=est.note)


def _numeric_list_max(value) -> float | None:
    """The largest item of a comma-separated numeric list parameter (``'10,50,200'``, ``'2x3x1,3x2x2'``: the
    product of an ``x`` item), None for any other string."""
    if not isinstance(value, str) or not value.strip():
        return None
    top = None
    for item in value.split(","):
        try:
            v = math.prod(float(f) for f in item.strip().split("x"))
        except ValueError:
            return None
        top = v if top is None else max(top, v)
    return top


def _as_number(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return value
    return _numeric_list_max(value)


def _tier_max(tiers: Mapping[str, Mapping[str, Any]], name: str):
    values = [v for v in (_as_number(t[name]) for t in tiers.values() if name in t) if v is not None]
    return max(values) if values else None


def _fmt_seconds(s: float) -> str:
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.3g} days"


def refusal(claim_id: str, params: Mapping[str, Any], tiers: Mapping[str, Mapping[str, Any]], *,
            force: bool = False) -> str | None:
    """Why these parameter values must not run (None: they may).  ``tiers``: {tier: resolved params}."""
    if force:
        return None
    cost = estimate(claim_id, params)
    covered: set[str] = set()
    if cost is not None:
        covered = ESTIMATES[claim_id].covers()
        budget = memory_budget()
        if cost.memory_bytes is not None and cost.memory_bytes > budget:
            return (f"{claim_id}: these parameters need about {cost.memory_bytes / GIB:.1f} GiB ({cost.note}), over the "
                    f"memory budget of {budget / GIB:.1f} GiB (set VERIFY_MEMORY_BUDGET_GIB to raise it, or pass --force)")
        limit = time_budget()
        if cost.seconds is not None and cost.seconds > limit:
            return (f"{claim_id}: these parameters need about {_fmt_seconds(cost.seconds)} (scaled from the recorded full-tier "
                    f"run), over the time budget of {_fmt_seconds(limit)} (set VERIFY_TIME_BUDGET_HOURS to raise it, "
                    "or pass --force)")
    elif claim_id in SAFE:
        return None
    for name, raw in params.items():
        value = _as_number(raw)
        if name in covered or value is None:
            continue
        top = _tier_max(tiers, name)
        if top is not None and top > 0 and value > DEFAULT_FACTOR * top:
            shown = raw if value == raw else f"{raw!r} (largest item {value:g})"
            return (f"{claim_id}: argument '{name}' = {shown} is more than {DEFAULT_FACTOR:g}x the largest value any tier "
                    f"runs ({top}); this claim declares no cost estimate for it, so the cost of larger values is unknown "
                    "(pass --force to run it anyway)")
    return None
