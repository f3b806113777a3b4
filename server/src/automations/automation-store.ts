/**
 * @module
 * Automations and their activity in SQL (the analytics migration's `automations`, `automation_activity`).
 */
import type { Network } from '@social-link-kit/protocol';
import type { SqlDriver } from '../core/db/sql-driver.js';
import type { Row } from '../core/db/rows.js';
import { isUniqueViolation } from '../publishing/post-store.js';

export interface Automation {
  id: string;
  profileId: string;
  name: string;
  triggerWords: string[];
  replyText: string;
  platforms: Network[];
  /** Only comments under this service post trigger it; null = any post. */
  postId: string | null;
  paused: boolean;
  createdAt: number;
  updatedAt: number;
}

export type ActivityStatus = 'pending' | 'sent' | 'failed' | 'auth_error';

export interface ActionResult {
  action: 'privateReply';
  status: 'success' | 'error';
  id?: string;
  errorDetails?: { code: number; message: string };
}

export interface Activity {
  id: string;
  automationId: string;
  platform: Network;
  networkPostId: string;
  commentId: string;
  commenter: string;
  status: ActivityStatus;
  actionResults: ActionResult[];
  createdAt: number;
}

function toAutomation(row: Row): Automation {
  return {
    id: row.id as string,
    profileId: row.profile_id as string,
    name: row.name as string,
    triggerWords: JSON.parse(row.trigger_words as string) as string[],
    replyText: row.reply_text as string,
    platforms: JSON.parse(row.platforms as string) as Network[],
    postId: (row.post_id as string | null) ?? null,
    paused: Number(row.paused) === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toActivity(row: Row): Activity {
  return {
    id: row.id as string,
    automationId: row.automation_id as string,
    platform: row.platform as Network,
    networkPostId: row.network_post_id as string,
    commentId: row.comment_id as string,
    commenter: row.commenter as string,
    status: row.status as ActivityStatus,
    actionResults: JSON.parse(row.action_results as string) as ActionResult[],
    createdAt: Number(row.created_at),
  };
}

export class AutomationStore {
  constructor(private readonly db: SqlDriver) {}

  async insert(automation: Automation): Promise<void> {
    await this.db.run(
      `INSERT INTO automations (id, profile_id, name, trigger_words, reply_text, platforms, post_id, paused, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        automation.id,
        automation.profileId,
        automation.name,
        JSON.stringify(automation.triggerWords),
        automation.replyText,
        JSON.stringify(automation.platforms),
        automation.postId,
        automation.paused ? 1 : 0,
        automation.createdAt,
        automation.updatedAt,
      ],
    );
  }

  async find(profileId: string, id: string): Promise<Automation | null> {
    const row = await this.db.get('SELECT * FROM automations WHERE profile_id = ? AND id = ?', [profileId, id]);
    return row ? toAutomation(row) : null;
  }

  async list(profileId: string): Promise<Automation[]> {
    return (await this.db.all('SELECT * FROM automations WHERE profile_id = ? ORDER BY created_at, id', [profileId])).map(toAutomation);
  }

  async setPaused(profileId: string, id: string, paused: boolean, now: number): Promise<boolean> {
    return (await this.db.run('UPDATE automations SET paused = ?, updated_at = ? WHERE profile_id = ? AND id = ?', [paused ? 1 : 0, now, profileId, id])) > 0;
  }

  async remove(profileId: string, id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM automations WHERE profile_id = ? AND id = ?', [profileId, id])) > 0;
  }

  /** Active automations of the profile on `platform`. */
  async active(profileId: string, platform: Network): Promise<Automation[]> {
    const all = await this.db.all('SELECT * FROM automations WHERE profile_id = ? AND paused = 0', [profileId]);
    return all.map(toAutomation).filter((automation) => automation.platforms.includes(platform));
  }

  /** Claims the (automation, comment) pair; false when it was already handled (a comment triggers it once). */
  async claim(activity: Activity): Promise<boolean> {
    try {
      await this.db.run(
        `INSERT INTO automation_activity (id, automation_id, platform, network_post_id, comment_id, commenter, status, action_results, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [activity.id, activity.automationId, activity.platform, activity.networkPostId, activity.commentId, activity.commenter, activity.status, JSON.stringify(activity.actionResults), activity.createdAt],
      );
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async finish(id: string, status: ActivityStatus, results: ActionResult[]): Promise<void> {
    await this.db.run('UPDATE automation_activity SET status = ?, action_results = ? WHERE id = ?', [status, JSON.stringify(results), id]);
  }

  async activity(automationId: string, limit = 200): Promise<Activity[]> {
    return (await this.db.all(`SELECT * FROM automation_activity WHERE automation_id = ? ORDER BY created_at DESC, id LIMIT ${Math.floor(limit)}`, [automationId])).map(toActivity);
  }
}
