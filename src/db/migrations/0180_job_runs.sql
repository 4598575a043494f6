-- Runs of durable jobs under way, and how many earlier runs of the same job ended their process
-- (their heartbeat stopped before they finished: the process was killed or crashed). A job whose
-- runs ended their process JOB_CRASH_LIMIT times is given up: poisoned_at and reason are set and
-- no run of it starts again by itself (src/jobs/job-runs.ts). A row goes when a run finishes,
-- whether the job succeeded or failed on an error; a given-up job's row stays as its record.
-- Global: the job key names the tenant where the job has one (say `7:import:42`).
create table job_runs (
  queue text not null,
  job_key text not null,
  crashes integer not null default 0,
  -- The run under way (null when none), and until when it is known to be alive.
  run_token uuid,
  alive_until timestamptz,
  poisoned_at timestamptz,
  reason text,
  primary key (queue, job_key)
);
