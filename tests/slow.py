"""Which tests are ``slow``: left out of the everyday loop, ``pytest -m "not slow"``.

The whole suite (the README's command, CI) runs them all. A test is slow when it

- belongs to a heavy group (Chromium, Ray: ``WORKER_GROUPS`` in ``tests/conftest.py``);
- is a Hypothesis property test (many generated examples each run);
- or is named in :data:`SLOW_TESTS`: subprocess suites, every-chunking sweeps over every
  fixture or real capture, servers started per test, memory and size limits. They were
  picked with ``pytest --durations=0`` (each took a few seconds or more on two cores);
  a module named there (with no ``::``) is slow as a whole.

When the slow tests are deselected, the modules that hold nothing else are not even
imported (:func:`deselects_slow`), which spares the everyday loop their imports (the
provider SDKs, Playwright, Ray).

A name in :data:`SLOW_TESTS` that no longer names a test of its module fails collection,
so that a renamed test does not silently join the everyday loop.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

__all__ = [
    "SLOW_TESTS",
    "deselects_slow",
    "is_property_test",
    "is_slow",
    "slow_module",
    "unknown_slow_tests",
    "unparametrized",
]

SLOW_TESTS: frozenset[str] = frozenset(
    {
        # whole modules: real SDK clients, and pytest or the compiled core in a subprocess
        "tests/live/test_real_clients.py",
        "tests/live/test_openai_websocket.py",
        "tests/proxy/test_websocket_cli.py::test_request_through_the_proxy_to_serve_over_a_websocket",
        "tests/conform/test_conform_litellm.py",
        "tests/conform/test_conform_real_streams.py",
        "tests/conform/test_conform_selftest.py",
        "tests/providers/test_adding_a_provider.py",
        "tests/transport/test_sdks.py",
        "tests/compare/test_vercel_sdk.py",
        "tests/scan/test_scan_hostile.py::test_large_files_are_judged_by_their_first_64_mib_in_bounded_memory",
        "tests/scan/test_scan_hostile.py::test_a_killed_worker_is_restarted_and_its_shard_tried_once_more",
        "tests/scan/test_scan_hostile.py::test_ctrl_c_on_a_pooled_scan_exits_130_with_the_partial_rows",
        "tests/scan/test_scan_hostile.py::test_a_named_fifo_or_device_is_refused_at_once",
        "tests/test_comment_runs.py::test_a_pipeline_holds_no_memory_per_comment",
        "tests/test_record_starts.py::test_a_run_of_equal_comments_takes_no_memory_per_comment",
        "tests/cli/test_frames_and_verdict.py::test_the_exit_code_survives_a_reader_that_leaves_early",
        "tests/proxy/test_sdks.py",
        "tests/test_core_parity.py",
        "tests/testing/test_docs.py",
        "tests/testing/test_sdk_matrix.py",
        "tests/testing/test_ws_fixture_openai.py",
        # single tests
        "tests/aggregate/test_timeline.py::test_the_replayed_timeline_is_the_report_at_the_end_and_the_engine_at_each_record",
        "tests/cli/test_frames_and_verdict.py::test_frames_piped_into_a_reader_that_stops_exits_quietly",
        "tests/cli/test_usage.py::test_a_terminal_on_stdin_without_a_file_prints_help_and_exits_2",
        "tests/cli/test_usage.py::test_python_dash_m_with_a_file_is_inspect",
        "tests/compare/test_check_command.py::test_the_object_a_real_client_built_checks_out",
        "tests/compare/test_clients.py::test_a_responses_response_with_wrong_arguments_and_usage_is_caught",
        "tests/compare/test_clients.py::test_any_json_result_is_compared_or_refused_with_a_result_error",
        "tests/compare/test_clients.py::test_the_final_object_of_the_real_client_agrees_with_the_stream",
        "tests/live/test_request_hostile.py::test_a_request_error_never_prints_a_key_from_the_url",
        "tests/live/test_request_hostile.py::test_an_authorization_value_with_crlf_is_a_usage_error_that_never_shows_the_key",
        "tests/live/test_request_serve.py::test_a_saved_capture_replays_with_its_chunks_and_timing_and_inspects_like_the_live_run",
        "tests/live/test_request_serve.py::test_ctrl_c_prints_what_arrived_and_exits_130",
        "tests/live/test_request_view.py::test_milestones_never_glue_onto_the_reply_and_it_is_printed_once",
        "tests/live/test_request_view.py::test_the_live_first_byte_is_the_reports_first_byte",
        "tests/live/test_serve_guard.py::test_an_empty_host_is_a_usage_error_not_every_interface",
        "tests/live/test_serve_guard.py::test_serve_answers_a_name_given_with_allow_host",
        "tests/live/test_serve_guard.py::test_serve_warns_for_an_address_other_than_loopback_names",
        "tests/providers/test_agent_event_streams.py::test_a_cut_recording_is_never_completed",
        "tests/providers/test_anthropic.py::test_each_fixture_yields_its_reply_in_every_chunking",
        "tests/providers/test_anthropic.py::test_each_real_anthropic_capture_gives_the_expected_facts",
        "tests/providers/test_bedrock.py::test_a_message_start_after_message_stop_starts_a_new_response",
        "tests/providers/test_bedrock.py::test_cutting_a_fixture_at_any_byte_never_raises",
        "tests/providers/test_bedrock.py::test_each_fixture_yields_its_reply_in_both_forms_in_every_chunking",
        "tests/providers/test_cohere.py::test_real_cohere_capture_gives_the_expected_facts",
        "tests/providers/test_gemini.py::test_each_fixture_gives_its_report_in_every_chunking",
        "tests/providers/test_gemini.py::test_real_gemini_capture_gives_the_expected_facts",
        "tests/providers/test_ollama.py::test_each_fixture_gives_its_report_in_every_chunking",
        "tests/providers/test_openai_chat.py::test_fixture_assembles_to_its_stated_facts_in_every_chunking",
        "tests/providers/test_openai_chat.py::test_real_capture_assembles_to_the_expected_facts",
        "tests/providers/test_openai_responses.py::test_fixture_gives_its_facts_and_only_its_diagnostics_in_every_chunking",
        "tests/providers/test_openai_responses.py::test_real_capture_gives_the_expected_facts",
        "tests/providers/test_registry.py::test_nothing_outside_the_provider_packages_names_one",
        "tests/providers/test_vercel_ui.py::test_fixture_gives_its_facts_and_only_its_diagnostics_in_every_chunking",
        "tests/proxy/test_bounded.py::test_a_bounded_pipeline_gives_the_report_inspect_gives",
        "tests/proxy/test_bounded.py::test_past_its_caps_a_bounded_pipeline_keeps_the_start_and_says_what_it_left_out",
        "tests/proxy/test_bounded.py::test_the_recorder_judges_each_stream_as_inspect_judges_its_capture",
        "tests/proxy/test_cli.py::test_json_lines_and_an_index_in_the_record_folder",
        "tests/proxy/test_cli.py::test_one_human_line_per_exchange",
        "tests/proxy/test_cli.py::test_web_serves_the_page_and_its_live_view_from_the_same_process",
        "tests/proxy/test_guard.py::test_a_rebinding_or_cross_site_request_is_refused_and_never_forwarded",
        "tests/proxy/test_guard.py::test_the_app_is_served_and_its_answer_gets_no_header_of_the_proxy",
        "tests/proxy/test_guard.py::test_the_command_refuses_other_hosts_and_takes_allow_host",
        "tests/proxy/test_hostile_clients.py::test_a_large_body_streams_through_and_only_its_size_is_recorded",
        "tests/proxy/test_hostile_clients.py::test_half_sent_requests_beyond_the_open_file_limit_do_not_lock_everyone_out",
        "tests/proxy/test_hostile_disk.py::test_a_file_size_limit_stops_the_recording_and_keeps_every_verdict",
        "tests/proxy/test_record_then_scan.py::test_a_record_folder_given_as_a_relative_path_scans_from_anywhere",
        "tests/proxy/test_sdks.py::test_the_sdk_gets_the_upstream_bytes_and_the_capture_its_verdict",
        "tests/scan/test_scan_local.py::test_a_missing_extra_is_named_in_one_line",
        "tests/scan/test_scan_local.py::test_a_terminal_gets_a_progress_bar",
        "tests/scan/test_scan_local.py::test_all_columns_are_carried_by_default_and_jsonl_tables_read_with_body",
        "tests/scan/test_scan_local.py::test_fail_on_makes_the_scan_a_gate",
        "tests/scan/test_scan_shards.py::test_two_workers_reading_their_own_rows_give_the_kernel_s_rows_in_order",
        "tests/test_core_parity.py::test_both_cores_give_identical_reports_on_every_fixture",
        "tests/test_cuts_and_chunkings.py::test_a_cut_stream_is_truncated_until_a_marker_and_keeps_a_prefix_of_the_text",
        "tests/test_limits.py::test_memory_for_bad_records_does_not_grow_with_their_number",
        "tests/testing/test_docs.py::test_the_example_suites_of_the_docs_pass",
        "tests/testing/test_sdk_matrix.py::test_the_sdks_read_every_fault_and_quirk_as_ssescope_judges_it",
        # servers started per test, real waits (stalls, time-outs), subprocesses: each took
        # 0.5 s or more on two cores in a --durations=0 run of the everyday loop
        "tests/cli/test_json_output_escapes.py::test_json_output_escapes_bidi_and_c1_controls",
        "tests/cli/test_json_output_escapes.py::test_request_json_output_escapes_bidi_and_c1_controls",
        "tests/cli/test_server_limits.py::test_half_sent_heads_time_out_and_connections_beyond_the_limit_get_503",
        "tests/cli/test_server_limits.py::test_half_sent_requests_beyond_the_open_file_limit_do_not_lock_everyone_out",
        "tests/cli/test_usage.py::test_a_bare_ssescope_prints_its_help_and_exits_0",
        "tests/cli/test_usage.py::test_a_missing_optional_dependency_names_the_extra_to_install",
        "tests/cli/test_usage.py::test_the_main_entry_point_runs_commands",
        "tests/compare/test_check_command.py::test_check_json_prints_the_structured_differences",
        "tests/compare/test_clients.py::test_a_gemini_response_with_wrong_text_and_finish_reason_is_caught",
        "tests/conform/test_conform_issue_rules.py::test_a_gateway_reading_its_upstream_to_the_end_fails_hangup_upstream_closed",
        "tests/conform/test_conform_url.py::test_a_replay_that_ignores_the_request_fails_the_request_checks",
        "tests/conform/test_conform_url.py::test_a_server_that_never_answers_fails_request_answered_within_the_timeout",
        "tests/containers/test_websocket_entries.py::test_a_jsonl_log_of_messages_is_scanned_one_row_per_response",
        "tests/live/test_content_stall.py::test_a_byte_stall_is_still_of_kind_bytes",
        "tests/live/test_content_stall.py::test_request_gives_up_on_keep_alives_alone_and_exits_7",
        "tests/live/test_content_stall.py::test_the_aiohttp_adapter_stops_on_a_content_stall",
        "tests/live/test_content_stall.py::test_the_async_httpx_adapter_stops_on_a_content_stall",
        "tests/live/test_content_stall.py::test_the_sync_httpx_adapter_stops_on_a_content_stall",
        "tests/live/test_content_stall.py::test_without_a_stall_abort_the_report_still_shows_both_idle_times",
        "tests/live/test_request_hostile.py::test_a_header_without_a_colon_is_not_echoed",
        "tests/live/test_request_hostile.py::test_stall_with_no_response_headers_exits_7",
        "tests/live/test_request_hostile.py::test_what_decoded_before_a_gzip_fault_is_kept_in_the_report_and_the_capture",
        "tests/live/test_request_serve.py::test_a_server_that_stays_open_after_the_terminal_marker_is_closed_and_reported",
        "tests/live/test_request_serve.py::test_a_stall_is_aborted_under_stall_with_exit_7",
        "tests/live/test_request_serve.py::test_save_writes_a_capture_without_secrets_that_replays_identically",
        "tests/live/test_request_serve.py::test_wire_level_faults_give_the_same_report_as_a_clean_stream",
        "tests/live/test_request_view.py::test_a_stall_abort_says_the_client_gave_up",
        "tests/live/test_request_websocket.py::test_stall_gives_up_and_says_so",
        "tests/live/test_serve_websocket.py::test_a_stall_pauses_before_the_record",
        "tests/live/test_serve_websocket.py::test_each_response_create_gets_the_next_recorded_response",
        "tests/live/test_serve_websocket.py::test_responses_the_recorded_server_started_by_itself_follow_the_clients_messages",
        "tests/live/test_sources.py::test_aiohttp_aborts_a_stalled_stream",
        "tests/otel/test_export.py::test_a_record_folder_takes_start_method_url_and_model_from_its_index",
        "tests/otel/test_export.py::test_an_unreachable_receiver_is_a_clear_failure",
        "tests/otel/test_export.py::test_captures_become_spans_with_the_times_they_recorded",
        "tests/otel/test_export.py::test_har_entries_are_one_span_each_at_their_started_time",
        "tests/otel/test_export.py::test_the_standard_endpoint_and_headers_variables_work",
        "tests/otel/test_first_content.py::test_every_surface_gives_the_first_reasoning_as_the_first_content",
        "tests/otel/test_first_content.py::test_the_live_milestone_of_request_is_the_reports_first_content",
        "tests/otel/test_first_content.py::test_the_transport_times_the_same_first_content",
        "tests/otel/test_proxy_otel.py::test_a_proxied_stream_is_a_span_with_the_requests_model_and_start",
        "tests/otel/test_transport_otel.py::test_a_client_timeout_is_a_cancelled_span",
        "tests/providers/test_agent_event_end_to_end.py::test_scan_gives_each_recording_its_verdict",
        "tests/providers/test_agent_event_end_to_end.py::test_serve_replays_each_recording_with_its_verdict",
        "tests/providers/test_agent_event_end_to_end.py::test_the_proxy_in_front_of_serve_records_and_judges_each_run",
        "tests/providers/test_mcp.py::test_every_cut_before_the_response_is_complete_is_truncated",
        "tests/proxy/test_content_idle.py::test_request_through_the_proxy_gives_up_on_the_keep_alives_alone",
        "tests/proxy/test_content_idle.py::test_the_live_view_and_the_index_show_the_silence_keep_alives_hide",
        "tests/proxy/test_forwarding.py::test_a_gzip_bomb_is_recorded_and_judged_a_bounded_step_at_a_time",
        "tests/proxy/test_forwarding.py::test_a_route_sends_its_prefix_to_another_upstream",
        "tests/proxy/test_forwarding.py::test_an_upstream_that_breaks_mid_stream_breaks_the_client_too",
        "tests/proxy/test_forwarding.py::test_an_upstream_that_stays_open_after_the_end_is_closed_and_reported",
        "tests/proxy/test_forwarding.py::test_heartbeats_count_as_bytes_but_not_as_content",
        "tests/proxy/test_forwarding.py::test_redact_content_hashes_the_text_and_keeps_the_verdict",
        "tests/proxy/test_forwarding.py::test_twenty_concurrent_streams_do_not_cross",
        "tests/proxy/test_hostile_clients.py::test_a_body_that_stops_coming_gets_408_after_the_idle_timeout",
        "tests/proxy/test_hostile_clients.py::test_a_half_sent_request_head_is_closed_after_the_header_timeout",
        "tests/proxy/test_hostile_clients.py::test_connections_beyond_the_limit_get_503_at_once",
        "tests/proxy/test_hostile_disk.py::test_a_full_device_under_the_index_stops_the_recording_in_one_line",
        "tests/proxy/test_hostile_echo.py::test_an_echoed_key_is_scrubbed_everywhere_but_in_what_the_client_gets",
        "tests/proxy/test_hostile_terminal.py::test_a_path_with_markup_is_text_in_the_live_table_and_in_the_line",
        "tests/proxy/test_http2_and_encodings.py::test_br_and_zstd_are_forwarded_untouched_and_recorded_decoded",
        "tests/proxy/test_http2_and_encodings.py::test_the_upstream_speaks_http2_and_the_client_gets_http11_with_the_same_bytes",
        "tests/proxy/test_http2_and_encodings.py::test_without_its_library_an_encoding_is_recorded_as_it_came_and_says_why",
        "tests/proxy/test_idle_agrees.py::test_the_index_and_inspect_of_the_capture_give_the_same_idle_times",
        "tests/proxy/test_pace_stall.py::test_a_fixed_idle_threshold_holds_in_the_proxy_and_in_inspect",
        "tests/proxy/test_pace_stall.py::test_a_silence_mid_tool_call_is_a_stall_on_the_line_in_the_index_and_in_inspect",
        "tests/proxy/test_record_then_conform.py::test_a_proxy_record_fails_the_checks_of_what_was_asked",
        "tests/proxy/test_record_then_conform.py::test_conform_judges_every_exchange_of_a_record_folder",
        "tests/proxy/test_silence_named.py::test_a_client_that_times_out_says_how_long_it_waited",
        "tests/proxy/test_silence_named.py::test_a_silence_mid_tool_call_is_named_on_the_line",
        "tests/proxy/test_silence_named.py::test_keep_alives_that_hide_a_silence_are_named",
        "tests/proxy/test_websocket.py::test_a_wss_upstream_is_reached_with_the_proxys_trust_settings",
        "tests/proxy/test_websocket.py::test_ten_concurrent_connections_lose_no_message",
        "tests/scan/test_scan_hostile.py::test_an_index_line_pointing_out_of_its_folder_is_refused",
        "tests/scan/test_scan_hostile.py::test_bad_tables_and_index_lines_are_error_rows_and_the_scan_goes_on",
        "tests/scan/test_scan_hostile.py::test_links_fifos_and_devices_are_read_once_or_refused",
        "tests/scan/test_scan_hostile.py::test_links_out_of_the_tree_are_followed_when_asked_each_real_path_once",
        "tests/scan/test_scan_idle.py::test_the_process_pool_judges_with_the_threshold_it_was_given",
        "tests/scan/test_scan_local.py::test_every_row_equals_inspect_of_its_stream",
        "tests/scan/test_scan_local.py::test_the_terminal_summary",
        "tests/test_diagnostics_documented.py::test_codes_are_made_only_in_the_modules_that_own_them",
        "tests/test_frame_rows.py::test_rows_are_the_same_in_every_chunking",
    }
)
"""``path::function`` (parameters left out, a class's tests as ``path::Class::function``)."""


def slow_module(relative: str, prefixes: tuple[str, ...] = ()) -> bool:
    """Whether the module or folder at ``relative`` (a path from the rootdir, with ``/``)
    holds only slow tests: named whole in :data:`SLOW_TESTS`, or under one of ``prefixes``
    (the heavy groups' paths)."""
    folder = relative.rstrip("/") + "/"
    return relative in SLOW_TESTS or any(
        relative.startswith(p) or (p.endswith("/") and folder == p) for p in prefixes
    )


def is_slow(item: pytest.Item, prefixes: tuple[str, ...] = ()) -> bool:
    """Whether ``item`` is slow: in a slow module, a property test, or named."""
    module = item.nodeid.split("::", 1)[0]
    return (
        slow_module(module, prefixes)
        or is_property_test(item)
        or unparametrized(item) in SLOW_TESTS
    )


def deselects_slow(config: pytest.Config) -> bool:
    """Whether ``-m`` deselects every test marked ``slow``, whatever its other marks: the
    expression is false with ``slow`` true, for each truth of the other names it uses."""
    markexpr = config.getoption("markexpr", "")
    if not markexpr:
        return False
    others = sorted(set(re.findall(r"[A-Za-z_][\w.-]*", markexpr)) - {"and", "or", "not", "slow"})
    if len(others) > 8:
        return False
    try:
        from _pytest.mark.expression import Expression

        expression = Expression.compile(markexpr)
        for marks in itertools.product((False, True), repeat=len(others)):
            true = {"slow", *(name for name, on in zip(others, marks, strict=True) if on)}
            if expression.evaluate(lambda name, /, **_: name in true):  # noqa: B023
                return False
    except Exception:  # another pytest: collect everything, -m still deselects
        return False
    return True


def relative_path(path: Path, root: Path) -> str | None:
    """``path`` from ``root`` with ``/`` separators, or None outside it."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def is_property_test(item: pytest.Item) -> bool:
    """Whether ``item`` is a Hypothesis ``@given`` test."""
    return bool(getattr(getattr(item, "obj", None), "is_hypothesis_test", False))


def unparametrized(item: pytest.Item) -> str:
    """``item``'s node id without its parameters."""
    return item.nodeid.split("[", 1)[0]


def unknown_slow_tests(items: list[pytest.Item]) -> list[str]:
    """The names in :data:`SLOW_TESTS` whose module was collected but has no such test
    (looked up in the module itself, so that selecting a few tests misses none)."""
    modules: dict[str, object] = {}
    for item in items:
        module = getattr(item, "module", None)
        if module is not None:
            modules.setdefault(item.nodeid.split("::", 1)[0], module)
    unknown = []
    for name in SLOW_TESTS:
        path, _, qualname = name.partition("::")
        if not qualname or path not in modules:
            continue
        found: object = modules[path]
        for part in qualname.split("::"):
            found = getattr(found, part, None)
        if found is None:
            unknown.append(name)
    return sorted(unknown)
