/**
 * The Prometheus registry (core/observability/metrics.ts): each label set is its own series, whatever its values
 * hold, and counts and histogram buckets add up.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceMetrics } from '../../src/core/observability/metrics.js';

describe('ServiceMetrics', () => {
  it('keeps label sets apart even when their text runs together, and counts each', async () => {
    const metrics = new ServiceMetrics();
    metrics.request('GET', '/a', 200, 0.003);
    metrics.request('GET', '/a', 200, 0.02);
    // Values whose concatenation matches another set's must not share its series.
    metrics.request('GET/', 'a', 200, 0.5);
    metrics.request('GETroute', '', 200, 0.5);
    metrics.request('GET', 'route', 200, 0.5);
    metrics.request('GET', '/a2', 0, 3);
    const text = await metrics.render();
    assert.match(text, /^slk_http_requests_total\{method="GET",route="\/a",status="200"\} 2$/m);
    assert.match(text, /^slk_http_requests_total\{method="GET\/",route="a",status="200"\} 1$/m);
    assert.match(text, /^slk_http_requests_total\{method="GET",route="\/a2",status="0"\} 1$/m);
    assert.match(text, /^slk_http_requests_total\{method="GETroute",route="",status="200"\} 1$/m);
    assert.match(text, /^slk_http_requests_total\{method="GET",route="route",status="200"\} 1$/m);
    assert.match(text, /^slk_http_request_duration_seconds_bucket\{method="GET",route="\/a",le="0\.005"\} 1$/m);
    assert.match(text, /^slk_http_request_duration_seconds_bucket\{method="GET",route="\/a",le="0\.025"\} 2$/m);
    assert.match(text, /^slk_http_request_duration_seconds_bucket\{method="GET",route="\/a",le="\+Inf"\} 2$/m);
    assert.match(text, /^slk_http_request_duration_seconds_count\{method="GET",route="\/a"\} 2$/m);
    assert.match(text, /^slk_http_request_duration_seconds_bucket\{method="GET",route="\/a2",le="2\.5"\} 0$/m);
    metrics.jobOutcome('publish', 'done');
    metrics.jobOutcome('publish', 'done');
    assert.match(await metrics.render(), /^slk_jobs_total\{kind="publish",outcome="done"\} 2$/m);
  });

  it('keeps routes apart that hold spaces and numbers, and keeps counting past the series lookup bound', async () => {
    const metrics = new ServiceMetrics();
    metrics.request('GET', '/a 404', 200, 0.001);
    metrics.request('GET', '/a', 404, 0.001);
    metrics.request('GET', '/a', 404, 0.001);
    for (let i = 0; i < 10_050; i++) metrics.request('GET', `/many/${i}`, 200, 0.001);
    metrics.request('GET', '/a', 404, 0.001);
    const text = await metrics.render();
    assert.match(text, /^slk_http_requests_total\{method="GET",route="\/a 404",status="200"\} 1$/m);
    assert.match(text, /^slk_http_requests_total\{method="GET",route="\/a",status="404"\} 3$/m);
    assert.match(text, /^slk_http_request_duration_seconds_count\{method="GET",route="\/a"\} 3$/m);
    assert.match(text, /^slk_http_requests_total\{method="GET",route="\/many\/10049",status="200"\} 1$/m);
  });
});
