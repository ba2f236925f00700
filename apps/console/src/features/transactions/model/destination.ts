import { tronAddressProblem } from '@settlement/protocol';
import type { Wallet } from '@settlement/protocol';

/**
 * What a withdrawal's destination is, as far as the organization's own wallets tell. The
 * service makes a withdrawal an internal transfer only when the address is a wallet of the
 * organization on the SAME chain as the source; the same address on another chain is a
 * different account there, so the label must compare the chain too.
 */
export type Destination =
  /** Not a valid address yet: nothing to look up. */
  | { kind: 'none' }
  /** The organization's wallets are being searched for this address. */
  | { kind: 'checking' }
  /** The search failed: whether it is internal is not known. */
  | { kind: 'unchecked' }
  | { kind: 'external' }
  | { kind: 'internal'; wallet: Wallet }
  /** The source wallet's own address: the service refuses it. */
  | { kind: 'source' }
  /** A wallet of the organization, but on another chain: the funds would never reach it. */
  | { kind: 'other-chain'; wallet: Wallet };

export function classifyDestination({
  address,
  isAddressValid,
  source,
  matches,
  isLookupFailed,
}: {
  address: string;
  isAddressValid: boolean;
  source: Pick<Wallet, 'id' | 'chain' | 'address'>;
  /** The organization's wallets with exactly this address; null while not known. */
  matches: readonly Wallet[] | null;
  isLookupFailed: boolean;
}): Destination {
  if (!isAddressValid) return { kind: 'none' };
  if (address === source.address) return { kind: 'source' };
  if (isLookupFailed) return { kind: 'unchecked' };
  if (matches === null) return { kind: 'checking' };
  const exact = matches.filter((w) => w.address === address);
  const sameChain = exact.find((w) => w.chain === source.chain && w.id !== source.id);
  if (sameChain) return { kind: 'internal', wallet: sameChain };
  const otherChain = exact.find((w) => w.chain !== source.chain);
  if (otherChain) return { kind: 'other-chain', wallet: otherChain };
  return { kind: 'external' };
}

/** Why the destination blocks the review, in words; null when it may be sent to. */
export function destinationProblem(destination: Destination, sourceChain: string): string | null {
  switch (destination.kind) {
    case 'none':
    case 'external':
    case 'internal':
      return null;
    case 'checking':
      return 'Checking whether this address is one of your wallets…';
    case 'unchecked':
      return 'Could not check whether this address is one of your wallets, so the console cannot say whether this is an internal transfer. Try again in a moment.';
    case 'source':
      return 'This is the address of the wallet you are sending from: a wallet cannot send to itself.';
    case 'other-chain':
      return wrongNetworkExplanation(destination.wallet, sourceChain);
  }
}

function wrongNetworkExplanation(
  wallet: Pick<Wallet, 'accountName' | 'chain'>,
  sourceChain: string,
): string {
  return (
    `Wrong network: this address is the ${wallet.chain} wallet of account ${wallet.accountName}, ` +
    `but you are sending from a ${sourceChain} wallet. The funds would land at this address on ` +
    `${sourceChain}, where the organization has no wallet for it, and the ${wallet.chain} wallet ` +
    `would never see them: a balance on one chain does not exist on another. To fund that ` +
    `wallet, send from a ${wallet.chain} wallet.`
  );
}

/** Why `value` is not a TRON address (protocol's validation), in words; null when it is one. */
export function addressProblem(value: string): string | null {
  if (value === '') return 'Enter the destination address.';
  // An EVM address is a common paste mistake: name it, rather than only "starts with T".
  if (/^0x[0-9a-fA-F]*$/.test(value)) {
    return 'This is a 0x… (Ethereum-style) address, not a TRON address. TRON addresses start with T.';
  }
  return tronAddressProblem(value);
}
