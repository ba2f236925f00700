import { z } from 'zod/mini';

/**
 * The unsent withdrawal form, kept in sessionStorage per operator while it is edited, so that
 * being signed out (another tab, expiry) does not lose it: after signing in again in this tab,
 * the same operator gets it back, marked as not sent. Keyed by username, so another operator
 * signing in here never sees it. Cleared once a withdrawal is created or the operator starts over.
 */
const PREFIX = 'settlement.withdrawal-draft.';

const SavedDraftSchema = z.object({
  walletId: z.string(),
  asset: z.string(),
  toAddress: z.string(),
  amount: z.string(),
  clientReference: z.string(),
  feeLimit: z.string(),
});
export type SavedDraft = z.infer<typeof SavedDraftSchema>;

/** The form's fields, as typed (the source wallet is chosen apart from them). */
export type WithdrawalDraft = Omit<SavedDraft, 'walletId'>;

export const EMPTY_DRAFT: WithdrawalDraft = {
  asset: '',
  toAddress: '',
  amount: '',
  clientReference: '',
  feeLimit: '',
};

export function draftOf({ walletId: _walletId, ...draft }: SavedDraft): WithdrawalDraft {
  return draft;
}

function isBlankDraft(draft: SavedDraft): boolean {
  return (
    draft.toAddress === '' &&
    draft.amount === '' &&
    draft.clientReference === '' &&
    draft.feeLimit === ''
  );
}

export function loadDraft(username: string): SavedDraft | null {
  try {
    const text = sessionStorage.getItem(PREFIX + username);
    if (!text) return null;
    const parsed = SavedDraftSchema.safeParse(JSON.parse(text));
    return parsed.success && !isBlankDraft(parsed.data) ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveDraft(username: string, draft: SavedDraft): void {
  try {
    if (isBlankDraft(draft)) sessionStorage.removeItem(PREFIX + username);
    else sessionStorage.setItem(PREFIX + username, JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the draft still lives in memory for this page.
  }
}

export function clearDraft(username: string): void {
  try {
    sessionStorage.removeItem(PREFIX + username);
  } catch {
    // Nothing to clear.
  }
}
